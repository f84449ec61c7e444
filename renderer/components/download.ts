// Hands a text to the browser as a file (Electron and the web host both turn this into a save).
export function downloadText(fileName: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // Revoked later: Chromium reads the blob after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
