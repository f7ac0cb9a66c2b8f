/** Every page of issue 3: its h1 and one piece of key content. */
export const PUBLIC_PAGES = [
  { path: '/', h1: 'L’indagine nazionale che dà voce alle scuole italiane', key: 'Il programma in numeri' },
  { path: '/team', h1: 'Team', key: 'Le organizzazioni partner' },
  { path: '/contatti', h1: 'Contatti', key: 'Domande frequenti' },
  { path: '/documentazione', h1: 'Documentazione', key: 'Guida per le scuole' },
  { path: '/edu', h1: 'Area educatori', key: 'Come accedere' },
  { path: '/landing/edu', h1: 'Educatori', key: 'Perché partecipare' },
  { path: '/landing/azioni', h1: 'Le azioni del programma', key: 'Che cosa sono le azioni' },
  {
    path: '/landing/registrazioni/insegnante',
    h1: 'Registrazione insegnanti',
    key: 'Registrati come insegnante',
  },
  {
    path: '/landing/registrazioni/educatore',
    h1: 'Registrazione educatori',
    key: 'Registrati come educatrice o educatore',
  },
  {
    path: '/landing/registrazioni/altro',
    h1: 'Registrazione: altri partecipanti',
    key: 'Registrati con un altro ruolo',
  },
  { path: '/indagine', h1: 'Indagine', key: 'Indagine nazionale sulle scuole 2026' },
  { path: '/policy/cookie', h1: 'Cookie policy', key: 'auth._refresh_token.local' },
  { path: '/test-char-9534310001a', h1: 'Pagina di prova', key: 'àèéìòù' },
  { path: '/privacy', h1: 'Informativa sulla privacy', key: 'I tuoi diritti' },
  { path: '/note-legali', h1: 'Note legali', key: 'Diritti sui contenuti' },
  { path: '/dichiarazione-accessibilita', h1: 'Dichiarazione di accessibilità', key: 'Stato di conformità' },
  { path: '/risultati/metodologia', h1: 'Come proteggiamo i risultati', key: 'Che cosa non pubblichiamo' },
];
