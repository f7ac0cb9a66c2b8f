// What the principal reads when a signed adhesion is refused: plain Italian, one message per failure.
import type { SignatureFailure } from './signature-verification.ts';

const FIXED_MESSAGES: Record<Exclude<SignatureFailure, 'signer_mismatch'>, string> = {
  unsupported_format:
    'Il file caricato non è in un formato supportato. Carica il documento di adesione firmato digitalmente ' +
    'in formato PAdES (.pdf) o CAdES (.p7m), di dimensione non superiore a 15 MB.',
  not_signed:
    'Il file caricato non contiene una firma digitale. Carica il documento firmato digitalmente dal dirigente ' +
    'scolastico (PAdES .pdf o CAdES .p7m).',
  signature_invalid:
    'La firma digitale del file non è valida: il file è danneggiato oppure è stato modificato dopo la firma. ' +
    'Firma di nuovo il documento di adesione e caricalo senza modificarlo.',
  document_mismatch:
    'Il file firmato non corrisponde al documento di adesione generato dal portale per il tuo istituto. ' +
    'Scarica di nuovo il documento di adesione, firmalo digitalmente senza modificarlo e caricalo.',
  certificate_expired:
    'Il certificato di firma digitale non era valido al momento in cui il portale ha ricevuto il file (scaduto o non ancora valido). ' +
    'Firma di nuovo il documento con un certificato in corso di validità e caricalo.',
  certificate_self_signed:
    'Il certificato di firma è autofirmato: non è emesso da un prestatore qualificato. ' +
    'Firma il documento con il dispositivo di firma digitale qualificata (smart card, token o firma remota) del dirigente scolastico.',
  issuer_not_qualified:
    'Il certificato non è emesso da un prestatore qualificato iscritto nell’elenco di fiducia (trusted list) italiano o europeo. ' +
    'Firma il documento con una firma digitale qualificata rilasciata da un prestatore qualificato.',
  service_not_granted:
    'Il servizio del prestatore che ha emesso il certificato non era qualificato al momento della firma (per esempio perché sospeso o revocato). ' +
    'Firma di nuovo il documento con una firma digitale qualificata in corso di validità.',
  certificate_not_qualified:
    'Il certificato di firma non è un certificato qualificato su dispositivo sicuro (mancano le dichiarazioni QcCompliance o QcSSCD): ' +
    'non è una firma digitale qualificata. Firma il documento con la firma digitale qualificata del dirigente scolastico.',
  signing_time_untrusted:
    'L’ora di firma indicata nel file non è attendibile: è precedente alla generazione del documento o successiva al suo caricamento. ' +
    'Controlla data e ora del computer con cui firmi, firma di nuovo il documento e caricalo.',
  certificate_revoked:
    'Il certificato di firma risulta revocato o sospeso dal prestatore che lo ha emesso: la firma non è valida. ' +
    'Firma di nuovo il documento con un certificato di firma digitale valido.',
  revocation_unavailable:
    'Non è stato possibile verificare presso il prestatore se il certificato di firma è stato revocato (servizio OCSP o lista CRL non raggiungibile). ' +
    'Riprova più tardi; se il problema continua, scrivi all’assistenza.',
  trust_list_unavailable:
    'In questo momento il portale non può verificare le firme digitali qualificate (elenco dei prestatori qualificati non disponibile). ' +
    'Riprova più tardi; se il problema continua, scrivi all’assistenza.',
};

function signerMismatchMessage(expectedTaxCode: string): string {
  const whose = expectedTaxCode
    ? `del dirigente scolastico con codice fiscale ${expectedTaxCode}`
    : 'del dirigente scolastico dell’istituto';
  return (
    `La firma digitale non è ${whose}. Il documento di adesione deve essere firmato con il certificato ` +
    'di firma digitale intestato al dirigente scolastico registrato per l’istituto.'
  );
}

/** The Italian message of a failure (a signer mismatch names the codice fiscale expected). */
export function failureMessage(code: SignatureFailure, expectedTaxCode = ''): string {
  return code === 'signer_mismatch' ? signerMismatchMessage(expectedTaxCode) : FIXED_MESSAGES[code];
}
