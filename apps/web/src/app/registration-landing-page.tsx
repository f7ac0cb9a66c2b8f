import type { TeacherKind } from '@portale/shared/accounts';
import type { PageId } from '@portale/shared/pages';
import { useEffect } from 'react';
import { useMatches, useSearchParams, type ActionFunctionArgs } from 'react-router';
import { VERIFIED_IDENTITY_QUERY } from '@portale/shared/identity';
import { IdentityLogin } from '../features/auth/identity-login.tsx';
import { Component as LandingContent } from '../features/public/landing-page.tsx';
import { RegistrationForm } from '../features/registration/registration-form.tsx';
import { rememberRegistrationPage } from '../lib/identity-marks.ts';

/**
 * The registration action checks the shared password policy (zxcvbn and its dictionaries, about 240 KB
 * gzip), so it is loaded at submit, not with the page; focusing the password field has usually loaded
 * the policy by then.
 */
export async function action(args: ActionFunctionArgs) {
  const { registrationAction } = await import('../features/registration/registration-actions.ts');
  return registrationAction(args);
}

const KIND_BY_PAGE: Record<string, TeacherKind> = {
  'landing.registration.teacher': 'insegnante',
  'landing.registration.educator': 'educatore',
  'landing.registration.other': 'altro',
};

/**
 * A registration landing: the landing content (title and description from the route table), "Registrati
 * con SPID o CIE" when they are on (not once the identity is verified), then the form of its kind.
 */
export function Component() {
  const pageId = (useMatches().at(-1)?.handle as { pageId: PageId }).pageId;
  const [params] = useSearchParams();
  // The SPID/CIE registration offer brings the person back to this kind of registration.
  useEffect(() => rememberRegistrationPage(pageId), [pageId]);
  return (
    <>
      <LandingContent />
      <div className="container mb-5">
        {!params.get(VERIFIED_IDENTITY_QUERY) && (
          <IdentityLogin
            heading="Registrati con SPID o CIE"
            intro="Il portale riceve nome, cognome e codice fiscale già verificati: non dovrai digitarli. Se hai già un account, entrerai in quello."
          />
        )}
        <RegistrationForm kind={KIND_BY_PAGE[pageId] ?? 'altro'} />
      </div>
    </>
  );
}
