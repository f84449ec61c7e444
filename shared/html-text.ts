// Text placed in a page the console writes (a run's report, the SLA report, the status page): every
// character that could open markup or leave an attribute is an entity, so a monitor name, a reply
// or an incident update holding `<script>` reads as text. The one escape of the console's pages.

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}
