import { REVIEW_FIELD_LABELS, type ReviewField } from '@portale/shared/reviews';

/** The data a reviewer flagged with "Chiedi correzioni", shown with the note where the person corrects. */
export function FlaggedFields({ fields }: { fields: readonly ReviewField[] }) {
  if (fields.length === 0) return null;
  return (
    <p className="mb-0 mt-2" data-testid="flagged-fields">
      <strong>Dati da correggere:</strong> {fields.map((f) => REVIEW_FIELD_LABELS[f]).join(', ')}.
    </p>
  );
}
