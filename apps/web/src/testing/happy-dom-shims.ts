/**
 * Two places where happy-dom departs from browsers in a way that breaks DOMPurify, so that under happy-dom it would
 * keep what it must remove. Patched here, for tests only, so that sanitising is tested as it runs in a browser:
 *
 * 1. happy-dom answers `nodeName` from each element class's own getter and leaves Node.prototype's returning ''.
 *    DOMPurify reads it through Node.prototype (against DOM clobbering), and would take every element as unknown.
 * 2. happy-dom's NodeIterator loses its place when the node it stands on is removed (browsers move it to the node
 *    before, as the DOM standard says). DOMPurify removes nodes while it walks, and would skip all that follows.
 */
export function shimHappyDomForDomPurify(): void {
  const nodeName = Object.getOwnPropertyDescriptor(Node.prototype, 'nodeName');
  const probe = document.createElement('p');
  if (!nodeName?.get || nodeName.get.call(probe) === probe.nodeName) return;

  const baseGetter = nodeName.get;
  Object.defineProperty(Node.prototype, 'nodeName', {
    ...nodeName,
    get(this: Node) {
      for (
        let proto = Object.getPrototypeOf(this);
        proto && proto !== Node.prototype;
        proto = Object.getPrototypeOf(proto)
      ) {
        const own = Object.getOwnPropertyDescriptor(proto, 'nodeName');
        if (own?.get) return own.get.call(this);
      }
      return baseGetter.call(this);
    },
  });

  const createNodeIterator = function createNodeIterator(
    root: Node,
    whatToShow = 0xffffffff,
    filter: NodeFilter | null = null,
  ): NodeIterator {
    return new RemovalSafeNodeIterator(root, whatToShow, filter) as unknown as NodeIterator;
  };
  // Wherever along the document's prototypes happy-dom defines it (HTMLDocument has its own).
  for (
    let proto = Object.getPrototypeOf(document);
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    if (Object.hasOwn(proto, 'createNodeIterator')) {
      Object.defineProperty(proto, 'createNodeIterator', {
        value: createNodeIterator,
        configurable: true,
        writable: true,
      });
    }
  }
}

/** The next node in document order inside `root`. */
function following(node: Node, root: Node): Node | null {
  if (node.firstChild) return node.firstChild;
  for (let current: Node | null = node; current && current !== root; current = current.parentNode) {
    if (current.nextSibling) return current.nextSibling;
  }
  return null;
}

/** The node before `node` in document order (its parent, or its previous sibling's last descendant). */
function preceding(node: Node, root: Node): Node {
  if (node === root) return root;
  let previous = node.previousSibling;
  if (!previous) return node.parentNode ?? root;
  while (previous.lastChild) previous = previous.lastChild;
  return previous;
}

/** A forward-only NodeIterator that, like a browser's, carries on after its current node is removed. */
class RemovalSafeNodeIterator {
  readonly pointerBeforeReferenceNode = false;
  private reference: Node;
  private before = true;
  private fallback: Node;

  constructor(
    readonly root: Node,
    readonly whatToShow: number,
    readonly filter: NodeFilter | null,
  ) {
    this.reference = root;
    this.fallback = root;
  }

  get referenceNode(): Node {
    return this.reference;
  }

  private accepts(node: Node): boolean {
    if (!(this.whatToShow & (1 << (node.nodeType - 1)))) return false;
    if (!this.filter) return true;
    const verdict = typeof this.filter === 'function' ? this.filter(node) : this.filter.acceptNode(node);
    return verdict === NodeFilter.FILTER_ACCEPT;
  }

  nextNode(): Node | null {
    let node: Node | null = this.reference;
    let before = this.before;
    if (node !== this.root && !this.root.contains(node)) {
      // Removed: go on from the node that was before it.
      node = this.fallback;
      before = false;
    }
    for (;;) {
      if (before) before = false;
      else node = node ? following(node, this.root) : null;
      if (!node) return null;
      if (this.accepts(node)) {
        this.reference = node;
        this.before = false;
        this.fallback = preceding(node, this.root);
        return node;
      }
    }
  }

  previousNode(): Node | null {
    throw new Error('not supported by the test shim');
  }

  detach(): void {}
}
