// A component that renders again only when one of its props changed (shallow comparison): what preact/compat's memo does.
import { Component, h, type ComponentChild, type FunctionComponent } from 'preact';

export function memo<P extends object>(render: FunctionComponent<P>): FunctionComponent<P> {
  class Memo extends Component<P> {
    override shouldComponentUpdate(next: P): boolean {
      const now = this.props as Record<string, unknown>;
      const after = next as Record<string, unknown>;
      for (const key in after) if (key !== 'children' && after[key] !== now[key]) return true;
      for (const key in now) if (!(key in after)) return true;
      return false;
    }

    override render(): ComponentChild {
      return h(render, this.props);
    }
  }
  return Memo as unknown as FunctionComponent<P>;
}
