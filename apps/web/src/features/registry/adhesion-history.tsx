import { ADHESION_STATE_LABELS, type InstituteDetail } from '@portale/shared/registry';
import { formatDateTime } from '../../lib/format.ts';

/** Every dated transition of an institute's adhesion, oldest first. */
export function AdhesionHistory({ transitions }: { transitions: InstituteDetail['adhesionHistory'] }) {
  if (transitions.length === 0) return <p>Nessun cambio di stato registrato.</p>;
  return (
    <ol className="list-unstyled border-start border-3 ps-3" data-testid="adhesion-history">
      {transitions.map((t, index) => (
        <li key={`${t.at}-${index}`} className="mb-2">
          <time dateTime={t.at} className="fw-semibold">
            {formatDateTime(t.at)}
          </time>
          : {ADHESION_STATE_LABELS[t.state]}
          {t.actor && <> · da {t.actor}</>}
          {t.note && <> · «{t.note}»</>}
        </li>
      ))}
    </ol>
  );
}
