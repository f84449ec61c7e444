// A button that picks one file (an <input type=file> behind a label styled as a button): the
// browser reads only the file the user chose, and the same works in the desktop window and the
// web host. The input is emptied after each pick, so the same file can be picked again.
import { useId } from 'react';

export function FileButton({
  label,
  accept,
  disabled,
  onFile,
}: {
  label: string;
  accept: string;
  disabled?: boolean;
  onFile: (file: File) => void;
}) {
  const id = useId();
  return (
    <span className="file-button">
      <input
        id={id}
        type="file"
        accept={accept}
        disabled={disabled}
        aria-label={label}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) onFile(file);
        }}
      />
      <label htmlFor={id} className={`button secondary${disabled ? ' disabled' : ''}`} aria-hidden="true">
        {label}
      </label>
    </span>
  );
}
