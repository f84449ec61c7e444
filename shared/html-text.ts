// Text written into HTML as text: every character that could open a tag, an entity or end an
// attribute's quotes is escaped. What the console writes as HTML (the suite and SLA reports, the
// status page, a reply's Markdown) comes from outside — agents' replies, names in files — so
// nothing is written into HTML without it.
const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
