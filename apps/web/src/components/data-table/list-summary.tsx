import { Link } from 'react-router';
import { formatCount, formatNumber } from '../../lib/format.ts';

interface PageInfo {
  total: number;
  page: number;
  pageSize: number;
}

/** The status line of a list: "1.709 istituti trovati, pagina 1 di 69." (null page: the filters were refused). */
export function listSummary(result: PageInfo | null, noun: { one: string; many: string }): string {
  if (!result) return 'Nessun risultato: correggi i filtri.';
  const pages = Math.max(1, Math.ceil(result.total / result.pageSize));
  const where = result.total ? `, pagina ${formatNumber(result.page)} di ${formatNumber(pages)}` : '';
  return `${formatCount(result.total, noun.one, noun.many)}${where}.`;
}

/** What an empty table says: refused filters, a page past the end (with the way back), or no match. */
export function ListEmpty(props: {
  refused: boolean;
  page: number;
  total: number;
  firstPageHref: string;
  noMatch: string;
}) {
  if (props.refused) return <>Nessun risultato da mostrare.</>;
  if (props.page > 1 && props.total > 0) {
    return (
      <>
        Questa pagina è oltre l’ultima. <Link to={props.firstPageHref}>Torna alla prima pagina</Link>.
      </>
    );
  }
  return <>{props.noMatch}</>;
}
