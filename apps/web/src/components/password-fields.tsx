import { useState } from 'react';
import { checkPasswordStrength, type PasswordContext } from '@portale/shared/accounts/password';
import { FormField } from './form-field.tsx';
import type { FieldErrors } from '../lib/form-data.ts';

const LEVELS = ['Molto debole', 'Debole', 'Discreta', 'Buona', 'Ottima'] as const;
const COLORS = ['bg-danger', 'bg-danger', 'bg-warning', 'bg-success', 'bg-success'] as const;

/** Strength of the password being typed, with the first rule it still breaks (quality.md A1–A2). */
export function PasswordMeter({ password, context }: { password: string; context?: PasswordContext }) {
  const strength = password ? checkPasswordStrength(password, context) : null;
  const score = strength?.score ?? 0;
  return (
    <div className="mt-n3 mb-4" data-testid="password-meter">
      <div className="progress" style={{ height: 6 }} aria-hidden="true">
        <div className={`progress-bar ${COLORS[score]}`} style={{ width: strength ? `${(score + 1) * 20}%` : '0%' }} />
      </div>
      <p className="small mt-1 mb-0" aria-live="polite">
        {strength ? `Robustezza della password: ${LEVELS[score]}.` : 'Almeno 12 caratteri; una frase di più parole è più sicura.'}
        {strength?.problem ? ` ${strength.problem}` : ''}
      </p>
    </div>
  );
}

/** New password twice, with the meter; field names follow the API (password, password_confirmation). */
export function NewPasswordFields({ errors, context, label = 'Nuova password' }: { errors?: FieldErrors | undefined; context?: PasswordContext; label?: string }) {
  const [password, setPassword] = useState('');
  return (
    <>
      <FormField
        type="password"
        id="password"
        name="password"
        label={label}
        autoComplete="new-password"
        required
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={errors?.password}
      />
      <PasswordMeter password={password} {...(context ? { context } : {})} />
      <FormField
        type="password"
        id="password_confirmation"
        name="password_confirmation"
        label="Ripeti la nuova password"
        autoComplete="new-password"
        required
        error={errors?.password_confirmation}
      />
    </>
  );
}
