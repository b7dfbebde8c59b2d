import { lazy, Suspense, useState, type ComponentType } from 'react';

/**
 * A drawer or modal whose code loads when it is first opened, not with its page: a form drawer
 * brings the form library, zod and its schemas, which a list page otherwise downloads and
 * evaluates before its first paint. Until the first `opened`, nothing renders; after
 * it, the dialog stays mounted so that it closes with its transition and opens again at once.
 *
 *   const RobotFormDrawer = lazyDialog(() =>
 *     import('../components/robot-form-drawer').then((m) => m.RobotFormDrawer));
 */
export function lazyDialog<P extends { opened: boolean }>(
  load: () => Promise<ComponentType<P>>,
): ComponentType<P> {
  const Dialog = lazy(() => load().then((component) => ({ default: component })));
  function LazyDialog(props: P) {
    const [wanted, setWanted] = useState(props.opened);
    // Set during render (React's pattern for state derived from props): no extra commit.
    if (props.opened && !wanted) setWanted(true);
    if (!wanted) return null;
    return (
      <Suspense fallback={null}>
        <Dialog {...props} />
      </Suspense>
    );
  }
  return LazyDialog;
}
