import { Skiplink, SkiplinkItem } from 'design-react-kit';

export function SkipLinks() {
  return (
    <Skiplink nav ariaLabel="Collegamenti rapidi">
      <SkiplinkItem navItem href="#main-content">
        Vai al contenuto principale
      </SkiplinkItem>
      <SkiplinkItem navItem href="#footer">
        Vai al piè di pagina
      </SkiplinkItem>
    </Skiplink>
  );
}
