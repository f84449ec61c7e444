// The reviews as a file: CSV for a spreadsheet or JSON, made by the core (the same file as
// `agent-console reviews export`), each row with its ids and the in-app link back.
import { useState } from 'react';
import { ErrorMessage } from '../../components/error-message';
import { downloadText } from '../../components/download';
import { exportReviews } from '../../data/reviews';

export function ReviewsExport({ label }: { label: string }) {
  const [error, setError] = useState<unknown>();
  const [said, setSaid] = useState('');
  const save = (format: 'csv' | 'json') => {
    setError(undefined);
    exportReviews({ format, ...(label ? { label } : {}) }).then(({ text, count }) => {
      downloadText(
        `reviews.${format}`,
        text,
        format === 'csv' ? 'text/csv;charset=utf-8' : 'application/json',
      );
      setSaid(
        `${count.toLocaleString()} ${count === 1 ? 'review' : 'reviews'} exported${label ? ` (label ${label})` : ''}.`,
      );
    }, setError);
  };
  return (
    <div className="reviews-export">
      <button type="button" className="secondary" onClick={() => save('csv')}>
        Export CSV
      </button>
      <button type="button" className="secondary" onClick={() => save('json')}>
        Export JSON
      </button>
      <span role="status" className="muted">
        {said}
      </span>
      {error ? <ErrorMessage error={error} title="The reviews could not be exported." /> : null}
    </div>
  );
}
