import { Pager as KitPager, PagerItem, PagerLink } from 'design-react-kit';
import { Link } from 'react-router';
import { formatNumber } from '../../lib/format.ts';
import { pageWindow } from './list-params.ts';

interface PagerProps {
  page: number;
  pageSize: number;
  total: number;
  /** The link of a page (keeps every other param of the URL). */
  hrefFor: (page: number) => string;
}

/** Bootstrap Italia pagination: links to pages (state in the URL), "Pagina X di Y" and the total. */
export function Pager({ page, pageSize, total, hrefFor }: PagerProps) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1 && page <= 1) return null;
  const prev = Math.min(page - 1, pages);
  return (
    <KitPager
      aria-label="Paginazione"
      className="mt-4"
      total={{
        ariaLabel: '',
        label: `Pagina ${formatNumber(Math.min(page, Math.max(pages, 1)))} di ${formatNumber(pages)}`,
      }}
    >
      <PagerItem disabled={page <= 1}>
        {page > 1 ? (
          <PagerLink tag={Link} to={hrefFor(prev)} preventScrollReset>
            <span aria-hidden="true">‹</span>
            <span className="visually-hidden">Pagina precedente</span>
          </PagerLink>
        ) : (
          <span className="page-link" aria-hidden="true">
            ‹
          </span>
        )}
      </PagerItem>
      {pageWindow(Math.min(page, pages), pages).map((n, i) =>
        n === null ? (
          <PagerItem key={`gap-${i}`} className="d-none d-sm-flex">
            <span className="page-link" aria-hidden="true">
              …
            </span>
          </PagerItem>
        ) : (
          <PagerItem key={n} active={n === page} className={n === page ? undefined : 'd-none d-sm-flex'}>
            <PagerLink
              tag={Link}
              to={hrefFor(n)}
              preventScrollReset
              aria-current={n === page ? 'page' : undefined}
            >
              <span className="visually-hidden">Pagina </span>
              {formatNumber(n)}
            </PagerLink>
          </PagerItem>
        ),
      )}
      <PagerItem disabled={page >= pages}>
        {page < pages ? (
          <PagerLink tag={Link} to={hrefFor(page + 1)} preventScrollReset>
            <span aria-hidden="true">›</span>
            <span className="visually-hidden">Pagina successiva</span>
          </PagerLink>
        ) : (
          <span className="page-link" aria-hidden="true">
            ›
          </span>
        )}
      </PagerItem>
    </KitPager>
  );
}
