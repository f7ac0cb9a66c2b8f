import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import {
  CONTACT_TOPICS,
  CONTACT_TOPIC_LABELS,
  ContactMessageInputSchema,
  sendContactMessage,
} from '@portale/shared/public';
import { ApiError } from '../../lib/http-client.ts';
import { callApi } from '../../lib/api-client.ts';
import { FieldError, fieldProps } from './form-field.tsx';

type Errors = Record<string, string[]>;
const EMPTY = { name: '', email: '', topic: '', message: '', privacyAccepted: false, website: '' };

/** Contact form: Italian errors per field (client and server), honeypot, confirmation. */
export function ContactForm() {
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [notice, setNotice] = useState<{ kind: 'success' | 'danger'; text: string } | null>(null);
  const [sending, setSending] = useState(false);
  const noticeRef = useRef<HTMLDivElement>(null);
  const set = (name: keyof typeof EMPTY, value: string | boolean) =>
    setValues((v) => ({ ...v, [name]: value }));

  const show = (next: { kind: 'success' | 'danger'; text: string }) => {
    setNotice(next);
    requestAnimationFrame(() => noticeRef.current?.focus());
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = ContactMessageInputSchema.safeParse(values);
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) (found[String(issue.path[0])] ??= []).push(issue.message);
      setErrors(found);
      show({ kind: 'danger', text: 'Alcuni dati non sono validi. Controlla i campi evidenziati.' });
      return;
    }
    setSending(true);
    try {
      const body = await callApi(sendContactMessage, { body: parsed.data });
      setErrors({});
      setValues(EMPTY);
      show({ kind: 'success', text: body.message });
    } catch (error) {
      const apiError = error instanceof ApiError ? error : undefined;
      setErrors(apiError?.body?.errors ?? {});
      show({
        kind: 'danger',
        text: error instanceof Error ? error.message : 'Invio non riuscito. Riprova più tardi.',
      });
    } finally {
      setSending(false);
    }
  }

  return (
    <form noValidate onSubmit={submit} aria-labelledby="modulo-contatto-title" data-testid="contact-form">
      <h2 id="modulo-contatto-title" className="h3 mb-3">
        Scrivici
      </h2>
      <p>Tutti i campi sono obbligatori.</p>
      <div
        ref={noticeRef}
        tabIndex={-1}
        role={notice?.kind === 'danger' ? 'alert' : 'status'}
        aria-live="polite"
      >
        {notice && <div className={`alert alert-${notice.kind}`}>{notice.text}</div>}
      </div>
      <div className="mb-4">
        <label className="form-label fw-semibold" htmlFor="contatto-name">
          Nome e cognome
        </label>
        <input
          className="form-control"
          type="text"
          autoComplete="name"
          value={values.name}
          onChange={(e) => set('name', e.target.value)}
          {...fieldProps('name', errors)}
        />
        <FieldError name="name" errors={errors} />
      </div>
      <div className="mb-4">
        <label className="form-label fw-semibold" htmlFor="contatto-email">
          Indirizzo e-mail
        </label>
        <input
          className="form-control"
          type="email"
          autoComplete="email"
          value={values.email}
          onChange={(e) => set('email', e.target.value)}
          {...fieldProps('email', errors)}
        />
        <FieldError name="email" errors={errors} />
      </div>
      <div className="mb-4">
        <label className="form-label fw-semibold" htmlFor="contatto-topic">
          Argomento
        </label>
        <select
          className="form-select"
          value={values.topic}
          onChange={(e) => set('topic', e.target.value)}
          {...fieldProps('topic', errors)}
        >
          <option value="">Scegli un argomento</option>
          {CONTACT_TOPICS.map((t) => (
            <option key={t} value={t}>
              {CONTACT_TOPIC_LABELS[t]}
            </option>
          ))}
        </select>
        <FieldError name="topic" errors={errors} />
      </div>
      <div className="mb-4">
        <label className="form-label fw-semibold" htmlFor="contatto-message">
          Messaggio
        </label>
        <textarea
          className="form-control"
          rows={6}
          value={values.message}
          onChange={(e) => set('message', e.target.value)}
          {...fieldProps('message', errors)}
        />
        <FieldError name="message" errors={errors} />
      </div>
      <div className="contact-hp" aria-hidden="true">
        <label htmlFor="contatto-website">Non compilare questo campo</label>
        <input
          id="contatto-website"
          type="text"
          tabIndex={-1}
          autoComplete="off"
          value={values.website}
          onChange={(e) => set('website', e.target.value)}
        />
      </div>
      <div className="form-check mb-4">
        <input
          type="checkbox"
          checked={values.privacyAccepted}
          onChange={(e) => set('privacyAccepted', e.target.checked)}
          {...fieldProps('privacyAccepted', errors)}
        />
        <label htmlFor="contatto-privacyAccepted">
          Ho letto l’<Link to="/privacy">informativa sulla privacy</Link>
        </label>
        <FieldError name="privacyAccepted" errors={errors} />
      </div>
      <button type="submit" className="btn btn-primary" disabled={sending}>
        {sending ? 'Invio in corso…' : 'Invia il messaggio'}
      </button>
    </form>
  );
}
