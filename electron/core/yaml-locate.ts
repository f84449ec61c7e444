// Maps a path in the parsed value of a YAML document (a zod issue's path, say) back to the line and
// column where it was written, through the document's node ranges and a LineCounter. Where the
// path does not exist (a missing field), the nearest written ancestor answers.
import { isMap, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';

export interface YamlPosition {
  line: number;
  col: number;
}

function keyText(key: unknown): string | undefined {
  if (isScalar(key)) return String(key.value);
  return typeof key === 'string' ? key : undefined;
}

/** The node at `path`; with `key`, the key node of that field of the map at `path`. */
function nodeAt(doc: Document, path: readonly PropertyKey[], key?: string): Node | undefined {
  let node: unknown = doc.contents;
  let nearest: Node | undefined = (doc.contents as Node | null) ?? undefined;
  const segments = key === undefined ? path : [...path, key];
  for (const [i, segment] of segments.entries()) {
    const last = i === segments.length - 1;
    if (isMap(node)) {
      const pair = node.items.find((p) => keyText(p.key) === String(segment));
      if (!pair) break;
      const keyNode = isScalar(pair.key) ? pair.key : undefined;
      // The key names an unknown field; a value's own problems are on the value, when it has one.
      const valueNode = pair.value && (pair.value as Node).range ? (pair.value as Node) : undefined;
      nearest = last && key !== undefined ? (keyNode ?? nearest) : (valueNode ?? keyNode ?? nearest);
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number') {
      const item = node.items[segment] as Node | undefined;
      if (!item) break;
      nearest = item;
      node = item;
    } else {
      break;
    }
  }
  return nearest;
}

export function locateInYaml(
  doc: Document,
  lines: LineCounter,
  path: readonly PropertyKey[],
  key?: string,
): YamlPosition {
  const node = nodeAt(doc, path, key);
  const offset = node?.range?.[0] ?? 0;
  return lines.linePos(offset);
}
