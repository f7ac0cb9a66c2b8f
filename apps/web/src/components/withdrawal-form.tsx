import { useId } from 'react';
import { Button } from 'design-react-kit';
import { Form, useNavigation } from 'react-router';
import { withdrawAdhesion } from '@portale/shared/adhesions';
import { callApi } from '../lib/api-client.ts';
import { orFailure, text, type FormResult } from '../lib/form-data.ts';
import { FormMessage } from './form/form-message.tsx';
import { TextAreaField } from './form/text-area-field.tsx';

export const WITHDRAW_INTENT = 'withdraw';

/** Submits a withdrawal form (staff on the institute page, the principal on their home): the API checks who may. */
export async function withdrawalAction(
  form: FormData,
  instituteId: number,
): Promise<FormResult & { intent: string }> {
  const outcome = await orFailure(() =>
    callApi(withdrawAdhesion, { params: { instituteId }, body: { reason: text(form, 'reason') } }),
  );
  if ('adhesionState' in outcome)
    return {
      intent: WITHDRAW_INTENT,
      ok: true,
      message: 'Adesione ritirata. Il dirigente e il referente sono stati avvisati.',
    };
  return { intent: WITHDRAW_INTENT, ...outcome };
}

/**
 * Withdrawal of an active institute's adhesion (product §5): a reason is required and kept in the
 * history. `instituteId` travels in the form when the page has no institute in its URL (the home).
 */
export function WithdrawalForm({
  result,
  instituteId,
}: {
  result: (FormResult & { intent?: string }) | undefined;
  instituteId?: number;
}) {
  const id = useId();
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === WITHDRAW_INTENT;
  const mine = result?.intent === WITHDRAW_INTENT ? result : undefined;
  const error = mine?.errors?.reason;
  return (
    <Form
      method="post"
      preventScrollReset
      className="border rounded p-3 mt-3"
      aria-labelledby={`${id}-title`}
    >
      <h3 id={`${id}-title`} className="h5">
        Ritira l’adesione
      </h3>
      <p>
        L’istituto esce dal programma: il dirigente e il referente ricevono un’e-mail con il motivo, che resta
        nello storico. L’operazione non si può annullare dal portale.
      </p>
      {mine?.message && <FormMessage message={mine.message} tone={mine.ok ? 'success' : 'danger'} />}
      <input type="hidden" name="intent" value={WITHDRAW_INTENT} />
      {instituteId !== undefined && <input type="hidden" name="instituteId" value={instituteId} />}
      <TextAreaField
        id={`${id}-reason`}
        name="reason"
        label="Motivo del ritiro (obbligatorio)"
        fieldClassName="form-group"
        labelClassName="active"
        rows={3}
        maxLength={2000}
        required
        error={error}
      />
      <Button color="danger" outline type="submit" disabled={busy}>
        Ritira l’adesione dell’istituto
      </Button>
    </Form>
  );
}
