/** Spec §2.2: mobile means a mobile user-agent, touch support, and a viewport narrower than 768 px. */
export function isMobileDevice(env: { userAgent: string; maxTouchPoints: number; hasTouchEvent: boolean; width: number }): boolean {
  const mobileAgent = /Android|webOS|iPhone|iPad|iPod|BlackBerry|IEMobile|Opera Mini|Mobile/i.test(env.userAgent);
  const touch = env.maxTouchPoints > 0 || env.hasTouchEvent;
  return mobileAgent && touch && env.width < 768;
}

export function isMobile(): boolean {
  return isMobileDevice({
    userAgent: navigator.userAgent,
    maxTouchPoints: navigator.maxTouchPoints ?? 0,
    hasTouchEvent: 'ontouchstart' in window,
    width: window.innerWidth,
  });
}
