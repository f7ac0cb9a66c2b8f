import type { DetectorSummary } from '@portale/shared/field-work';

/** The detectors as a select's options, "Cognome Nome" (with their provinces when asked). */
export function DetectorOptions({
  detectors,
  withProvinces = false,
}: {
  detectors: readonly DetectorSummary[];
  withProvinces?: boolean;
}) {
  return (
    <>
      {detectors.map((d) => (
        <option key={d.id} value={d.id}>
          {d.lastName} {d.firstName}
          {withProvinces ? ` (${d.provinces.join(', ') || 'nessuna provincia'})` : ''}
        </option>
      ))}
    </>
  );
}
