import { Spin } from 'antd';
import { lazy, Suspense, type ComponentType } from 'react';
import { Navigate, useRoutes, type RouteObject } from 'react-router';
import { ErrorPage } from '../common/ErrorPage.tsx';
import { guardIds } from '../common/idRoutes.tsx';
import { ReviewShell } from './ReviewShell.tsx';

function page(load: () => Promise<{ default: ComponentType }>) {
  const Component = lazy(load);
  return (
    <Suspense fallback={<Spin style={{ display: 'block', margin: '80px auto' }} />}>
      <Component />
    </Suspense>
  );
}

const home = () => (location.hash = '#/');

/**
 * The review centre's pages, in the hash like the back office's: tasks, a question's works, scoring one work. An id
 * that is not digits is the 404 page.
 */
export const reviewRoutes: RouteObject[] = guardIds([
  {
    element: <ReviewShell />,
    children: [
      { path: '/', element: page(() => import('./pages/TaskListPage.tsx')) },
      { path: '/question/:questionId', element: page(() => import('./pages/QuestionWorksPage.tsx')) },
      { path: '/score/:assignmentId', element: page(() => import('./pages/ScorePage.tsx')) },
      { path: '/404', element: <ErrorPage code={404} onHome={home} /> },
      { path: '*', element: <Navigate to="/404" replace /> },
    ],
  },
]);

/** Rendered inside a HashRouter; no route needs the data router (see the site's routes). */
export function ReviewRoutes() {
  return useRoutes(reviewRoutes);
}
