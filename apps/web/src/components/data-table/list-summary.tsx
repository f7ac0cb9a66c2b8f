import { Link } from 'react-router';
import { formatCount, formatNumber } from '../../lib/format.ts';

interface PageInfo {
  total: number;
  /** The total is an estimate (a large list, decision 033): said "circa". */
  totalApproximate?: boolean;
  page: number;
  pageSize: number;
}

/**
 * The status line of a list: "1.709 istituti trovati, pagina 1 di 69." (null page: the filters were
 * refused); with an estimated total, "circa 201.000 insegnanti trovati, pagina 1 di circa 8.040.".
 */
export function listSummary(result: PageInfo | null, noun: { one: string; many: string }): string {
  if (!result) return 'Nessun risultato: correggi i filtri.';
  const pages = Math.max(1, Math.ceil(result.total / result.pageSize));
  const about = result.totalApproximate ? 'circa ' : '';
  const where = result.total ? `, pagina ${formatNumber(result.page)} di ${about}${formatNumber(pages)}` : '';
  return `${about}${formatCount(result.total, noun.one, noun.many)}${where}.`;
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
