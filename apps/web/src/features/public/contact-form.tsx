import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import {
  CONTACT_TOPICS,
  CONTACT_TOPIC_LABELS,
  ContactMessageInputSchema,
  sendContactMessage,
} from '@portale/shared/public';
import { Button } from 'design-react-kit';
import { ApiError } from '../../lib/http-client.ts';
import { callApi } from '../../lib/api-client.ts';
import { CheckboxField } from '../../components/form/checkbox-field.tsx';
import { InputField } from '../../components/form/input-field.tsx';
import { SelectField } from '../../components/form/select-field.tsx';
import { TextAreaField } from '../../components/form/text-area-field.tsx';
import { INVALID_FORM_MESSAGE } from '../../lib/form-action.ts';

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

  /** id, name, error and the spacing of a field of this form (ids `contatto-<name>`, kept by e2e). */
  const field = (name: keyof typeof EMPTY) => ({
    id: `contatto-${name}`,
    name,
    error: errors[name]?.join(' '),
    fieldClassName: 'mb-4',
  });

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
      show({ kind: 'danger', text: INVALID_FORM_MESSAGE });
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
      <InputField
        {...field('name')}
        label="Nome e cognome"
        type="text"
        autoComplete="name"
        value={values.name}
        onChange={(e) => set('name', e.target.value)}
      />
      <InputField
        {...field('email')}
        label="Indirizzo e-mail"
        type="email"
        autoComplete="email"
        value={values.email}
        onChange={(e) => set('email', e.target.value)}
      />
      <SelectField
        {...field('topic')}
        label="Argomento"
        value={values.topic}
        onChange={(e) => set('topic', e.target.value)}
        options={[
          { value: '', label: 'Scegli un argomento' },
          ...CONTACT_TOPICS.map((t) => ({ value: t, label: CONTACT_TOPIC_LABELS[t] })),
        ]}
      />
      <TextAreaField
        {...field('message')}
        label="Messaggio"
        rows={6}
        value={values.message}
        onChange={(e) => set('message', e.target.value)}
      />
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
      <CheckboxField
        {...field('privacyAccepted')}
        fieldClassName="form-check mb-4"
        label={
          <>
            Ho letto l’<Link to="/privacy">informativa sulla privacy</Link>
          </>
        }
        checked={values.privacyAccepted}
        onChange={(e) => set('privacyAccepted', e.target.checked)}
      />
      <Button color="primary" type="submit" disabled={sending}>
        {sending ? 'Invio in corso…' : 'Invia il messaggio'}
      </Button>
    </form>
  );
}
