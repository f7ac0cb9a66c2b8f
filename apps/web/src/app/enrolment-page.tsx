import { IdentityLogin } from '../features/auth/identity-login.tsx';
import { Component as EnrolmentPage } from '../features/enrolment/enrolment-page.tsx';

export { action, loader } from '../features/enrolment/enrolment-page.tsx';

/**
 * The enrolment, with "Iscrivi la scuola con SPID o CIE" under its first step when the providers are on
 * (decision 054): after the provider, a person with no account is offered the enrolment as the
 * verified person. Composed here: a feature never imports another.
 */
export function Component() {
  return (
    <EnrolmentPage
      identityLogin={
        <IdentityLogin
          heading="Iscrivi la scuola con SPID o CIE"
          intro="Sei il dirigente o il referente e non hai ancora un account? Entra con la tua identità digitale: nome, cognome e codice fiscale della tua parte dell’iscrizione arriveranno già verificati e il nuovo account sarà collegato a SPID o CIE."
        />
      }
    />
  );
}
