import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Form, Link, useLocation, useSubmit } from 'react-router';
import { Button } from 'design-react-kit';
import { PAGE_SIZES } from '@portale/shared/lists';
import { PROVINCES, PROVINCES_BY_REGION, REGION_OPTIONS, type Region } from '@portale/shared/registry';
import { InputField } from '../form/input-field.tsx';
import { FilterSelectField } from '../form/select-field.tsx';

export interface FilterOption {
  value: string;
  label: string;
}

export interface SelectFilter {
  name: string;
  label: string;
  options: readonly FilterOption[];
  /** The option that means "no filter". */
  anyLabel?: string;
}

interface FilterBarProps {
  /** Accessible name of the search form ("Cerca negli istituti"). */
  label: string;
  /** The list's query as the loader read it from the URL. */
  query: Record<string, string>;
  search: { label: string; hint: string };
  /** Region and province selects, the province options following the region. */
  geography?: boolean;
  selects?: readonly SelectFilter[];
  sortOptions: readonly FilterOption[];
  defaultSort: string;
  /** Per-field messages of a 422. */
  errors?: Record<string, string>;
  children?: ReactNode;
}

const SEARCH_DELAY_MS = 350;

function NativeSelect(props: {
  id: string;
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly FilterOption[];
  anyLabel?: string | undefined;
  error?: string | undefined;
}) {
  return (
    <FilterSelectField
      id={props.id}
      name={props.name}
      label={props.label}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      error={props.error}
      anyLabel={props.anyLabel}
      options={props.options}
    />
  );
}

const PAGE_SIZE_OPTIONS = PAGE_SIZES.map((n) => ({ value: String(n), label: String(n) }));

function provinceOptions(region: string): FilterOption[] {
  const list = (PROVINCES_BY_REGION as Record<string, readonly string[]>)[region] ?? PROVINCES;
  return list.map((p) => ({ value: p, label: p }));
}

/** The selects' values follow the URL; a new URL (back, a header sort, a link) resets them. */
function useQueryValues(query: Record<string, string>) {
  const [values, setValues] = useState(query);
  const [seen, setSeen] = useState(query);
  if (seen !== query) {
    setSeen(query);
    setValues(query);
  }
  return [values, setValues] as const;
}

/**
 * The filters of a list: a GET form (it works as a plain form too) whose fields are the URL's params.
 * Submitting drops `page`, so a new filter starts from page 1. The search box searches as you type.
 */
export function FilterBar({
  label,
  query,
  search,
  geography,
  selects = [],
  sortOptions,
  defaultSort,
  errors = {},
  children,
}: FilterBarProps) {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const submit = useSubmit();
  const { pathname } = useLocation();
  const [values, setValues] = useQueryValues(query);
  const set = (name: string, value: string) => setValues((v) => ({ ...v, [name]: value }));

  // The search box is not controlled (typing must never be overwritten by an older URL), but a URL
  // changed elsewhere (back button, reset link) shows its text unless the user is typing in it.
  useEffect(() => {
    const input = searchRef.current;
    if (input && input !== document.activeElement) input.value = query.q ?? '';
  }, [query.q]);
  useEffect(() => () => clearTimeout(timer.current), []);

  // With JavaScript the URL keeps only what filters something (no `q=&region=`, no default order).
  const send = (replace: boolean) => {
    clearTimeout(timer.current);
    if (!formRef.current) return;
    const params = new URLSearchParams();
    for (const [key, value] of new FormData(formRef.current)) {
      const text = typeof value === 'string' ? value.trim() : '';
      const isDefault =
        (key === 'sort' && text === defaultSort) || (key === 'pageSize' && text === String(PAGE_SIZES[0]));
      if (text && !isDefault) params.set(key, text);
    }
    void submit(params, { method: 'get', action: pathname, replace, preventScrollReset: true });
  };
  const searchAsYouType = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => send(true), SEARCH_DELAY_MS);
  };

  const fieldId = (name: string) => `${id}-${name}`;
  const region = values.region ?? '';
  const provinces = provinceOptions(region);
  return (
    <Form
      method="get"
      ref={formRef}
      role="search"
      aria-label={label}
      className="filter-bar mb-4"
      onSubmit={(event) => {
        event.preventDefault();
        send(false);
      }}
    >
      <div className="row g-3">
        <div className="col-12 col-lg-6">
          <InputField
            ref={searchRef}
            id={fieldId('q')}
            name="q"
            type="search"
            label={search.label}
            fieldClassName="form-group mb-0"
            labelClassName="active"
            defaultValue={query.q ?? ''}
            maxLength={200}
            autoComplete="off"
            onChange={searchAsYouType}
            hint={search.hint}
            hintClassName="form-text small mb-0"
            error={errors.q}
          />
        </div>
        {geography && (
          <>
            <div className="col-12 col-sm-6 col-lg-3">
              <NativeSelect
                id={fieldId('region')}
                name="region"
                label="Regione"
                anyLabel="Tutte le regioni"
                options={REGION_OPTIONS}
                value={region}
                error={errors.region}
                onChange={(value) => {
                  // A province of another region would match nothing: the province follows the region.
                  const keep = value && provinceOptions(value).some((p) => p.value === values.province);
                  setValues((v) => ({ ...v, region: value, province: keep ? (v.province ?? '') : '' }));
                }}
              />
            </div>
            <div className="col-12 col-sm-6 col-lg-3">
              <NativeSelect
                id={fieldId('province')}
                name="province"
                label="Provincia"
                anyLabel={region ? `Tutte (${(region as Region).split('/')[0]})` : 'Tutte le province'}
                options={provinces}
                value={values.province ?? ''}
                error={errors.province}
                onChange={(value) => set('province', value)}
              />
            </div>
          </>
        )}
        {selects.map((filter) => (
          <div className="col-12 col-sm-6 col-lg-3" key={filter.name}>
            <NativeSelect
              id={fieldId(filter.name)}
              name={filter.name}
              label={filter.label}
              anyLabel={filter.anyLabel ?? 'Tutti'}
              options={filter.options}
              value={values[filter.name] ?? ''}
              error={errors[filter.name]}
              onChange={(value) => set(filter.name, value)}
            />
          </div>
        ))}
        <div className="col-12 col-sm-6 col-lg-3">
          <NativeSelect
            id={fieldId('sort')}
            name="sort"
            label="Ordina per"
            options={sortOptions}
            value={values.sort ?? defaultSort}
            error={errors.sort}
            onChange={(value) => set('sort', value)}
          />
        </div>
        <div className="col-12 col-sm-6 col-lg-3">
          <NativeSelect
            id={fieldId('pageSize')}
            name="pageSize"
            label="Righe per pagina"
            options={PAGE_SIZE_OPTIONS}
            value={values.pageSize ?? String(PAGE_SIZES[0])}
            error={errors.pageSize}
            onChange={(value) => set('pageSize', value)}
          />
        </div>
      </div>
      <div className="d-flex flex-wrap gap-2 mt-3 align-items-center">
        <Button color="primary" type="submit">
          Applica i filtri
        </Button>
        <Link to={pathname} className="btn btn-outline-primary">
          Azzera i filtri
        </Link>
        {children}
      </div>
    </Form>
  );
}
