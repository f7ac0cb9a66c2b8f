/**
 * A full navigation to another site (an identity provider's single logout, decision 052): the
 * router's navigation cannot leave the web's origin. A module of its own so that tests can stub it.
 */
export function leaveFor(url: string): void {
  window.location.assign(url);
}
