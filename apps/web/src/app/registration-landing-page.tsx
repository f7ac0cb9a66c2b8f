import type { TeacherKind } from '@portale/shared/accounts';
import type { PageId } from '@portale/shared/pages';
import { useMatches, type ActionFunctionArgs } from 'react-router';
import { Component as LandingContent } from '../features/public/landing-page.tsx';
import { RegistrationForm } from '../features/registration/registration-form.tsx';

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

/** A registration landing: the landing content (title and description from the route table), then the form of its kind. */
export function Component() {
  const pageId = (useMatches().at(-1)?.handle as { pageId: PageId }).pageId;
  return (
    <>
      <LandingContent />
      <div className="container mb-5">
        <RegistrationForm kind={KIND_BY_PAGE[pageId] ?? 'altro'} />
      </div>
    </>
  );
}
