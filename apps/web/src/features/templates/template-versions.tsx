import { useState } from 'react';
import { Form } from 'react-router';
import { type TemplateVersion } from '@portale/shared/templates';
import { Button } from 'design-react-kit';
import { formatShortDateTime } from '../../lib/format.ts';

export function VersionHistory({ versions, current }: { versions: TemplateVersion[]; current: number }) {
  const [confirming, setConfirming] = useState<number | null>(null);
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
                ) : confirming === v.version ? (
                  <Form
                    method="post"
                    preventScrollReset
                    className="d-flex flex-column gap-2"
                    onSubmit={() => setConfirming(null)}
                  >
                    <p className="mb-0 small" id={`restore-${v.version}`}>
                      Ripristinare la versione {v.version}? Sarà copiata in una nuova versione, la{' '}
                      {current + 1}, che andrà subito in uso.
                    </p>
                    <input type="hidden" name="intent" value="restore" />
                    <input type="hidden" name="version" value={v.version} />
                    <div className="d-flex gap-2">
                      <Button
                        type="submit"
                        color="danger"
                        size="sm"
                        aria-describedby={`restore-${v.version}`}
                      >
                        Conferma il ripristino
                      </Button>
                      <Button
                        type="button"
                        color="secondary"
                        outline
                        size="sm"
                        onClick={() => setConfirming(null)}
                      >
                        Annulla
                      </Button>
                    </div>
                  </Form>
                ) : (
                  <Button
                    type="button"
                    color="primary"
                    outline
                    size="sm"
                    onClick={() => setConfirming(v.version)}
                  >
                    Ripristina<span className="visually-hidden"> la versione {v.version}</span>
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
