/**
 * j / k move the focus to the next / previous row, hit or message (elements marked data-nav); `/` goes
 * to the search box. Typing in a field is left alone. Tab order works as it always does.
 */
export const installKeys = () => {
  document.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) return;
    if (event.key === '/') {
      event.preventDefault();
      document.querySelector('input[name=q]')?.focus();
      return;
    }
    if (event.key !== 'j' && event.key !== 'k') return;
    const items = [...document.querySelectorAll('[data-nav]')];
    if (items.length === 0) return;
    const at = items.findIndex((item) => item === target || item.contains(target));
    const next = event.key === 'j' ? Math.min(at + 1, items.length - 1) : Math.max(at - 1, 0);
    items[at < 0 ? 0 : next].focus();
    event.preventDefault();
  });
};
