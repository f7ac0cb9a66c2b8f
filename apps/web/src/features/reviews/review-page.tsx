import { useEffect, useRef } from 'react';
import {
  data,
  Form,
  Link,
  useActionData,
  useLoaderData,
  useParams,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
} from 'react-router';
import { ERROR_MESSAGES, SEED_ERRORS } from '@portale/shared/http';
import { href } from '@portale/shared/pages';
import {
  decideReview,
  getReview,
  nextReview,
  REVIEW_DECISION_LABELS,
  REVIEW_DECISION_STATE,
  REVIEW_CORRECTABLE_FIELDS,
  REVIEW_DECISIONS,
  REVIEW_FIELD_LABELS,
  REVIEW_NOTE_MAX,
  REVIEW_STATE_LABELS,
  REVIEW_TYPE_LABELS,
  ReviewConflictSchema,
  ReviewDecisionBodySchema,
  type ReviewDecision,
  type ReviewDetail,
  type ReviewType,
} from '@portale/shared/reviews';
import { parseId } from '@portale/shared/validation';
import { ChoiceField } from '../../components/form/choice-field.tsx';
import { FormMessage } from '../../components/form/form-message.tsx';
import { TextAreaField } from '../../components/form/text-area-field.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { failureResult, text, type FieldErrors } from '../../lib/form-data.ts';
import { formatNumber } from '../../lib/format.ts';
import { ReviewHistory, ReviewItem } from './review-item.tsx';
import { invalidForm } from '../../lib/form-action.ts';

interface Data {
  item: ReviewDetail | null;
  /** Items waiting (walking the queue); null when one item was asked by `?item=`. */
  pending: number | null;
  /** The item was asked by `?item=` (from the list) rather than taken from the queue. */
  chosen: boolean;
}

interface ActionResult {
  tone: 'success' | 'warning' | 'danger';
  message: string;
  errors?: FieldErrors;
  /** The item the result is about: a new item in the page clears the form's messages. */
  itemId: number;
}

/**
 * `?item=` shows that item (from the list, also when decided); otherwise the queue's next item is
 * claimed for this reviewer for five minutes, so that two reviewers never see the same one.
 */
export async function loader({ params, request }: LoaderFunctionArgs): Promise<Data> {
  const type = params.reviewType as ReviewType;
  const url = new URL(request.url);
  const raw = url.searchParams.get('item');
  const signal = request.signal;
  if (raw !== null) {
    const itemId = parseId(raw);
    if (itemId === undefined)
      throw data({ message: SEED_ERRORS.pageNotFound(url.pathname + url.search) }, { status: 404 });
    const item = await callApi(getReview, { params: { type, itemId } }, { signal });
    return { item, pending: null, chosen: true };
  }
  const next = await callApi(nextReview, { params: { type } }, { signal });
  return { item: next.item, pending: next.pending, chosen: false };
}

/** Records the decision; a 409 (another reviewer was first) is a message, then the next item shows. */
export async function action({ params, request }: ActionFunctionArgs): Promise<ActionResult> {
  const type = params.reviewType as ReviewType;
  const form = await request.formData();
  const itemId = parseId(text(form, 'itemId')) ?? 0;
  const title = text(form, 'itemTitle');
  const body = {
    decision: text(form, 'decision') || undefined,
    note: text(form, 'note') || undefined,
    fields: form.getAll('fields').map(String),
  };
  const parsed = ReviewDecisionBodySchema.safeParse(body);
  if (!parsed.success)
    return {
      tone: 'danger',
      ...invalidForm(parsed.error.issues),
      itemId,
    };
  try {
    await callApi(decideReview, { params: { type, itemId }, body: parsed.data });
    const state = REVIEW_STATE_LABELS[REVIEW_DECISION_STATE[parsed.data.decision]];
    return {
      tone: 'success',
      message: `Decisione registrata: «${title}» ora è nello stato «${state}».`,
      itemId,
    };
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) {
      const conflict = ReviewConflictSchema.safeParse(error.body);
      return { tone: 'warning', message: conflict.success ? conflict.data.message : error.message, itemId };
    }
    const failure = failureResult(error, 'Decisione non registrata. Riprova più tardi.');
    return {
      tone: 'danger',
      message: failure.message ?? ERROR_MESSAGES.internal,
      errors: failure.errors ?? {},
      itemId,
    };
  }
}

function Outcome({ result }: { result: ActionResult }) {
  if (result.tone === 'danger') return <FormMessage message={result.message} />;
  return (
    <div className={`alert alert-${result.tone}`} role="status" data-testid="review-outcome">
      {result.message}
    </div>
  );
}

function DecisionForm({ item, errors }: { item: ReviewDetail; errors: FieldErrors }) {
  const decisionError = errors.decision;
  const noteError = errors.note;
  const fieldsError = errors.fields;
  return (
    <Form
      method="post"
      noValidate
      aria-labelledby="decisione-title"
      data-testid="review-decision"
      preventScrollReset
    >
      <h2 id="decisione-title" className="h4">
        Decisione
      </h2>
      <input type="hidden" name="itemId" value={item.id} />
      <input type="hidden" name="itemTitle" value={item.title} />
      <ChoiceField
        id="decision"
        name="decision"
        legend="Scegli la decisione"
        legendClassName="h6 fw-normal"
        options={REVIEW_DECISIONS.map((decision: ReviewDecision) => ({
          value: decision,
          label: REVIEW_DECISION_LABELS[decision],
        }))}
        error={decisionError}
      />
      <ChoiceField
        id="review-fields"
        name="fields"
        type="checkbox"
        legend="Dati da correggere"
        legendClassName="h6 fw-normal"
        options={REVIEW_CORRECTABLE_FIELDS[item.type].map((field) => ({
          value: field,
          label: REVIEW_FIELD_LABELS[field],
        }))}
        optionId={(field) => `review-field-${field}`}
        hint="Solo se chiedi correzioni: i dati segnati sono evidenziati nella pagina in cui la persona corregge."
        hintFirst
        hintClassName="form-text small mt-0 mb-2"
        error={fieldsError}
      />
      <TextAreaField
        id="review-note"
        name="note"
        label="Nota"
        fieldClassName="form-group mb-3"
        labelClassName="active"
        hintClassName="form-text small mb-0"
        rows={4}
        maxLength={REVIEW_NOTE_MAX}
        hint={
          <>
            Obbligatoria per chiedere correzioni o respingere (al massimo {formatNumber(REVIEW_NOTE_MAX)}{' '}
            caratteri): è inviata per e-mail a chi ha inviato la richiesta.
          </>
        }
        error={noteError}
      />
      <SubmitButton idle="Registra la decisione" busy="Registrazione in corso…" />
    </Form>
  );
}

/** Staff: the queue one item at a time — the item, its history, the decision; then the next item. */
export function Component() {
  const { item, pending, chosen } = useLoaderData<Data>();
  const result = useActionData<ActionResult>();
  const type = useParams().reviewType as ReviewType;
  const queueHref = href('portal.reviews', { reviewType: type });
  const nextHref = href('portal.review', { reviewType: type });
  // A result about an item no longer shown (decided, the next one came) keeps its message, not its field errors.
  const errors = result && item && result.itemId === item.id ? (result.errors ?? {}) : {};
  const outcomeRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (result && result.tone !== 'danger') outcomeRef.current?.focus();
  }, [result]);
  return (
    <>
      <PageHeader
        title={`Revisione: ${REVIEW_TYPE_LABELS[type].toLowerCase()}`}
        description="Esamina un elemento alla volta: approva, chiedi correzioni o respingi con una nota."
      >
        <p className="mb-0">
          <Link to={queueHref}>Torna alla coda</Link>
          {pending !== null && (
            <span className="ms-3" data-testid="review-pending">
              {pending === 1 ? '1 elemento in attesa' : `${formatNumber(pending)} elementi in attesa`}
            </span>
          )}
        </p>
      </PageHeader>
      <div ref={outcomeRef} tabIndex={-1}>
        {result && <Outcome result={result} />}
      </div>
      {!item ? (
        <section aria-labelledby="vuota-title" className="callout" data-testid="review-empty">
          <h2 id="vuota-title" className="h4">
            Nessun elemento da revisionare
          </h2>
          <p>
            Non ci sono elementi in attesa che un altro revisore non stia già esaminando. Torna più tardi o
            consulta la coda.
          </p>
          <Link className="btn btn-primary" to={queueHref}>
            Torna alla coda
          </Link>
        </section>
      ) : (
        <div className="row">
          <div className="col-lg-7">
            <ReviewItem item={item} />
            <ReviewHistory history={item.history} />
          </div>
          <div className="col-lg-5">
            {item.state === 'in_attesa' ? (
              // A new item is a new form: nothing chosen or typed for the previous one is kept.
              <DecisionForm key={item.id} item={item} errors={errors} />
            ) : (
              <section aria-labelledby="decisa-title" data-testid="review-decided">
                <h2 id="decisa-title" className="h4">
                  Elemento già deciso
                </h2>
                <p>
                  Questo elemento è nello stato «{REVIEW_STATE_LABELS[item.state]}»: non si può decidere di
                  nuovo.
                </p>
                <Link className="btn btn-primary" to={nextHref}>
                  Passa al prossimo elemento
                </Link>
              </section>
            )}
            {chosen && item.state === 'in_attesa' && (
              <p className="mt-3">
                <Link to={nextHref}>Passa al prossimo elemento in coda</Link>
              </p>
            )}
          </div>
        </div>
      )}
    </>
  );
}
