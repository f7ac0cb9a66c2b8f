import { type TemplateVersion } from '@portale/shared/templates';
import { ConfirmButton } from '../../components/form/confirm-button.tsx';
import { formatShortDateTime } from '../../lib/format.ts';

export function VersionHistory({ versions, current }: { versions: TemplateVersion[]; current: number }) {
  return (
    <div className="table-responsive">
      <table className="table">
        <caption>Versioni del modello, dalla più recente</caption>
        <thead>
          <tr>
            <th scope="col">Versione</th>
            <th scope="col">Salvata il</th>
            <th scope="col">Da</th>
            <th scope="col">Contenuto</th>
            <th scope="col">Azioni</th>
          </tr>
        </thead>
        <tbody>
          {versions.map((v) => (
            <tr key={v.version}>
              <th scope="row">
                {v.version}
                {v.version === current && <span className="badge bg-success ms-2">in uso</span>}
              </th>
              <td>{formatShortDateTime(v.createdAt)}</td>
              <td>
                {v.createdBy ?? 'Sistema (versione predefinita)'}
                {v.restoredFromVersion !== null && (
                  <div className="small">Ripristino della versione {v.restoredFromVersion}</div>
                )}
              </td>
              <td>
                <details>
                  <summary>Mostra il testo</summary>
                  {v.subject && (
                    <p className="mb-1">
                      <strong>Oggetto:</strong> {v.subject}
                    </p>
                  )}
                  <pre className="small mb-0" style={{ whiteSpace: 'pre-wrap' }}>
                    {v.textBody}
                  </pre>
                </details>
              </td>
              <td>
                {v.version === current ? (
                  '—'
                ) : (
                  <ConfirmButton
                    intent="restore"
                    fields={{ version: String(v.version) }}
                    label={
                      <>
                        Ripristina<span className="visually-hidden"> la versione {v.version}</span>
                      </>
                    }
                    question={`Ripristinare la versione ${v.version}? Sarà copiata in una nuova versione, la ${current + 1}, che andrà subito in uso.`}
                    confirmLabel="Conferma il ripristino"
                    openerClassName="btn btn-outline-primary btn-sm"
                    confirmClassName="btn btn-danger btn-sm"
                    cancelClassName="btn btn-outline-secondary btn-sm"
                    boxClassName="small"
                  />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
