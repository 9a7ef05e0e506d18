/**
 * A searchable, paged list whose search and page live in the address (`?q=…&page=…`, so a link or the
 * back button keeps them): the state with search-as-you-type, the search form and the pager. Used by
 * Discover and People.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from './ui.tsx';

export interface SearchPaging {
  /** The search in the address. */
  q: string;
  /** The page shown, from 1. */
  page: number;
  /** The first row of the page for `size` rows a page. */
  offset: number;
  /** What is typed in the search box (it becomes `q` a little after the last key). */
  text: string;
  setText: (t: string) => void;
  /** Searches for what is typed now. */
  search: () => void;
  /** Goes to page `p`, keeping the search. */
  go: (p: number) => void;
}

export function useSearchPaging(size: number): SearchPaging {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [text, setText] = useState(q);
  useEffect(() => setText(q), [q]);
  // search as you type, a little after the last key
  useEffect(() => {
    if (text === q) return;
    const t = setTimeout(() => setParams(text ? { q: text } : {}, { replace: true }), 300);
    return () => clearTimeout(t);
  }, [text, q, setParams]);
  return {
    q,
    page,
    offset: (page - 1) * size,
    text,
    setText,
    search: () => setParams(text ? { q: text } : {}),
    go: (p) => setParams({ ...(q ? { q } : {}), ...(p > 1 ? { page: String(p) } : {}) }),
  };
}

/** The search form: a labelled search box (`label` for screen readers), and a Search button when `button`. */
export function SearchForm({ paging, id, label, placeholder, button }: { paging: SearchPaging; id: string; label: string; placeholder: string; button?: boolean }) {
  return (
    <form className="search" role="search" onSubmit={(e) => { e.preventDefault(); paging.search(); }}>
      <label htmlFor={id} className="visually-hidden">{label}</label>
      <input id={id} className="input" type="search" placeholder={placeholder} value={paging.text} onChange={(e) => paging.setText(e.target.value)} />
      {button && <Button type="submit">Search</Button>}
    </form>
  );
}

/** Previous / Next around "Page n of m" (and what `children` adds to it). */
export function Pager({ paging, pages, children }: { paging: SearchPaging; pages: number; children?: ReactNode }) {
  const { page, go } = paging;
  return (
    <nav className="pager" aria-label="Pages">
      <Button disabled={page <= 1} onClick={() => go(page - 1)}>Previous</Button>
      <span>Page {page} of {pages}{children}</span>
      <Button disabled={page >= pages} onClick={() => go(page + 1)}>Next</Button>
    </nav>
  );
}

/** How many pages `total` rows make at `size` a page (at least one). */
export const pageCount = (total: number | undefined, size: number) => (total === undefined ? 1 : Math.max(1, Math.ceil(total / size)));
