import { Component, type ReactNode } from 'react';

/**
 * What a page that throws while rendering leaves on screen: a sentence and a way out instead of a blank page. A lazy
 * page whose chunk no longer exists (the site was updated while the tab was open) is the usual cause, so reloading is
 * the action offered.
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div role="alert" style={{ padding: '120px 24px', textAlign: 'center', color: 'rgba(0,0,0,0.65)' }}>
        <p style={{ fontSize: 16 }}>页面加载出错了，请刷新页面后重试。</p>
        <button type="button" onClick={() => location.reload()} style={{ marginTop: 12, padding: '4px 15px', cursor: 'pointer' }}>
          刷新页面
        </button>
      </div>
    );
  }
}
