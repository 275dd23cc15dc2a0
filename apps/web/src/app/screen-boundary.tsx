import { Component, type ReactNode, Suspense } from 'react';
import { RouteError } from './route-error';

type Props = {
  children: ReactNode;
  fallback: ReactNode;
  /** The address shown: a screen that failed there is tried again once the customer goes elsewhere. */
  address: string;
  standalone?: boolean;
};

type State = { failed: boolean; failedAt?: string | undefined };

/**
 * Where screens loaded on demand show: the fallback while a screen's code arrives, and the route's error message if it
 * cannot (the server unreachable, say) instead of an empty page.
 */
export class ScreenBoundary extends Component<Props, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return state.failedAt !== undefined && state.failedAt !== props.address
      ? { failed: false, failedAt: undefined }
      : null;
  }

  override componentDidCatch() {
    this.setState({ failedAt: this.props.address });
  }

  override render() {
    if (this.state.failed) return <RouteError standalone={this.props.standalone} />;
    return <Suspense fallback={this.props.fallback}>{this.props.children}</Suspense>;
  }
}
