// The renderer's exports use the one CSV writer the core's reports use too (shared/csv.ts).
export { csvField, csvText } from '../../shared/csv';
