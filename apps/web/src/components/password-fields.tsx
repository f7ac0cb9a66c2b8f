import { useEffect, useState } from 'react';
import type { PasswordContext } from '@portale/shared/accounts/password';
import { TextField } from './form/text-field.tsx';
import type { FieldErrors } from '../lib/form-data.ts';

const LEVELS = ['Molto debole', 'Debole', 'Discreta', 'Buona', 'Ottima'] as const;
const COLORS = ['bg-danger', 'bg-danger', 'bg-warning', 'bg-success', 'bg-success'] as const;

type PasswordPolicy = typeof import('@portale/shared/accounts/password');
let policy: PasswordPolicy | undefined;
let loading: Promise<PasswordPolicy> | undefined;

/**
 * The password policy (zxcvbn and its dictionaries, about 240 KB gzip) is loaded once, when a password
 * field is first focused or typed in — never with the page. A failed load is tried again next time.
 */
export function loadPasswordPolicy(): Promise<PasswordPolicy> {
  loading ??= import('@portale/shared/accounts/password').then(
    (module) => (policy = module),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** For a password field's `onFocus`: starts loading the policy so the meter is ready at the first key. */
export function preloadPasswordPolicy(): void {
  loadPasswordPolicy().catch(() => {});
}

/** The policy once loaded; `wanted` starts the load (a password typed or filled in before any focus). */
function usePasswordPolicy(wanted: boolean): PasswordPolicy | undefined {
  const [loaded, setLoaded] = useState(policy);
  useEffect(() => {
    if (!wanted || loaded) return;
    let live = true;
    loadPasswordPolicy().then(
      (module) => live && setLoaded(module),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [wanted, loaded]);
  return loaded;
}

/** Strength of the password being typed, with the first rule it still breaks (quality.md A1–A2). */
export function PasswordMeter({ password, context }: { password: string; context?: PasswordContext }) {
  const loaded = usePasswordPolicy(password !== '');
  const strength = password && loaded ? loaded.checkPasswordStrength(password, context) : null;
  const score = strength?.score ?? 0;
  return (
    <div className="mt-n3 mb-4" data-testid="password-meter">
      <div className="progress" style={{ height: 6 }} aria-hidden="true">
        <div
          className={`progress-bar ${COLORS[score]}`}
          style={{ width: strength ? `${(score + 1) * 20}%` : '0%' }}
        />
      </div>
      <p className="small mt-1 mb-0" aria-live="polite">
        {strength
          ? `Robustezza della password: ${LEVELS[score]}.`
          : 'Almeno 12 caratteri; una frase di più parole è più sicura.'}
        {strength?.problem ? ` ${strength.problem}` : ''}
      </p>
    </div>
  );
}

/** New password twice, with the meter; field names follow the API (password, password_confirmation). */
export function NewPasswordFields({
  errors,
  context,
  label = 'Nuova password',
}: {
  errors?: FieldErrors | undefined;
  context?: PasswordContext;
  label?: string;
}) {
  const [password, setPassword] = useState('');
  return (
    <>
      <TextField
        type="password"
        id="password"
        name="password"
        label={label}
        autoComplete="new-password"
        required
        value={password}
        onFocus={preloadPasswordPolicy}
        onChange={(event) => setPassword(event.target.value)}
        error={errors?.password}
      />
      <PasswordMeter password={password} {...(context ? { context } : {})} />
      <TextField
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
