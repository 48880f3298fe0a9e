// @ts-check
/**
 * The shop's order list, kept fresh: every element with `data-orders` is redrawn from GET /api/orders every two
 * seconds. It shows the shop's own records, which change only when the proxy's onPaymentUpdate hook fires (that
 * is, from the service's callbacks), never from what the widget in the same page believes.
 */
(() => {
  const INTERVAL_MS = 2000;
  const MAX_POLLS = 1800; // an hour, then the page stops asking
  const panels = /** @type {HTMLElement[]} */ ([...document.querySelectorAll('[data-orders]')]);
  if (!panels.length) return;

  /** @param {string} tag @param {Record<string, string>} [attrs] @param {(Node | string)[]} [children] */
  function el(tag, attrs = {}, children = []) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    node.append(...children);
    return node;
  }

  /** @param {string} amount @param {string} currency */
  function money(amount, currency) {
    return currency === 'RUB' ? `${amount} ₽` : currency === 'INR' ? `₹${amount}` : `${currency} ${amount}`;
  }

  /**
   * @param {HTMLElement} panel
   * @param {{ id: string, productName: string, status: string, paid?: { amount: string, currency: string }, announcements: { state: string }[] }[]} orders
   */
  function render(panel, orders) {
    if (!orders.length) {
      panel.replaceChildren(el('p', { class: 'empty' }, ['No orders yet.']));
      return;
    }
    const highlight = panel.dataset.highlight;
    const rows = orders.map((o) =>
      el('tr', { 'data-order-id': o.id, ...(o.id === highlight ? { class: 'current' } : {}) }, [
        el('td', {}, [o.id]),
        el('td', {}, [o.productName]),
        el('td', {}, [el('span', { class: `status status-${o.status}`, 'data-status': '' }, [o.status])]),
        el('td', {}, [o.paid ? money(o.paid.amount, o.paid.currency) : '']),
        el('td', { 'data-announcements': '' }, [o.announcements.map((a) => a.state).join(' → ')]),
      ]),
    );
    const head = el(
      'tr',
      {},
      ['Order', 'Product', 'Status', 'Paid', 'Announced'].map((t) => el('th', {}, [t])),
    );
    panel.replaceChildren(el('table', { class: 'orders' }, [el('thead', {}, [head]), el('tbody', {}, rows)]));
  }

  let polls = 0;
  async function refresh() {
    polls += 1;
    try {
      const answer = await fetch('/api/orders', { headers: { accept: 'application/json' } });
      if (answer.ok) {
        const { orders } = await answer.json();
        for (const panel of panels) render(panel, orders);
      }
    } catch {
      // Offline for a moment: the next round tries again.
    }
    if (polls < MAX_POLLS) setTimeout(refresh, INTERVAL_MS);
  }
  refresh();
})();
