import type { TeacherKind } from '@portale/shared/accounts';
import { useMatches } from 'react-router';
import { Component as LandingContent } from '../features/public/landing-page.tsx';
import { RegistrationForm } from '../features/registration/registration-form.tsx';

export { registrationAction as action } from '../features/registration/registration-actions.ts';

const KIND_BY_PAGE: Record<string, TeacherKind> = {
  'landing.registration.teacher': 'insegnante',
  'landing.registration.educator': 'educatore',
  'landing.registration.other': 'altro',
};

/** A registration landing: the landing content (title and description from the route table), then the form of its kind. */
export function Component() {
  const pageId = (useMatches().at(-1)?.handle as { pageId: string }).pageId;
  return (
    <>
      <LandingContent />
      <div className="container mb-5">
        <RegistrationForm kind={KIND_BY_PAGE[pageId] ?? 'altro'} />
      </div>
    </>
  );
}
