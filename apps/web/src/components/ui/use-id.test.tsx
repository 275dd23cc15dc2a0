import { useId as mantineUseId } from '@mantine/hooks';
import { act, render } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { useId } from './use-id';

/** A component with an id, counting its renders. */
function Field({ useIdHook, staticId, renders }: { useIdHook: typeof useId; staticId?: string; renders: string[] }) {
  const id = useIdHook(staticId);
  renders.push(id);
  return <input id={id} aria-label={id} />;
}

describe('useId in place of Mantine’s', () => {
  it('renders a field once as it mounts, where Mantine’s renders it again to change its id', () => {
    const ours: string[] = [];
    const theirs: string[] = [];
    render(<Field useIdHook={useId} renders={ours} />);
    render(<Field useIdHook={mantineUseId} renders={theirs} />);
    expect(ours).toHaveLength(1);
    expect(theirs).toHaveLength(2);
    expect(theirs[0]).not.toBe(theirs[1]);
  });

  it('gives each field an id of its own that holds over renders, and the id given when there is one', () => {
    const renders: string[] = [];
    function Form() {
      const [, setCount] = useState(0);
      return (
        <form>
          <Field useIdHook={useId} renders={renders} />
          <Field useIdHook={useId} renders={renders} />
          <Field useIdHook={useId} staticId="email" renders={renders} />
          <button type="button" onClick={() => setCount((count) => count + 1)}>
            again
          </button>
        </form>
      );
    }
    const { container, getByRole } = render(<Form />);
    const ids = () => [...container.querySelectorAll('input')].map((input) => input.id);
    const first = ids();
    expect(first[0]).toMatch(/^mantine-\S+$/);
    expect(new Set(first).size).toBe(3);
    expect(first[2]).toBe('email');
    act(() => getByRole('button').click());
    expect(renders.length).toBeGreaterThan(3);
    expect(ids()).toEqual(first);
    // Usable as a selector, as Mantine's components use them.
    expect(container.querySelector(`#${first[0]}`)).not.toBeNull();
  });
});
