// @ts-check
/**
 * A small single-page shop in React 19. React 19 passes properties to custom elements and listens to their
 * custom events natively, so `<payin-checkout>` is used as it is, type-checked through the package's JSX typings
 * (`payin-checkout/react`): `orderId` and `method` are set as properties, `onpayin-paid` listens to `payin-paid`.
 */
import { useEffect, useState } from 'react';
import { loadOrder, loadProducts, placeOrder } from './shop-api.js';

/** @typedef {import('payin-checkout/react').PayinCheckoutReactProps} CheckoutProps (the typings for <payin-checkout>) */
/** @typedef {import('./shop-api.js').Product} Product */
/** @typedef {import('./shop-api.js').ShopOrder} ShopOrder */
/** @typedef {'upi' | 'sbp'} Method */

/** @type {Record<Method, string>} */
const CURRENCY = { upi: 'INR', sbp: 'RUB' };
/** @type {readonly Method[]} */
const METHODS = ['upi', 'sbp'];
const POLL_MS = 2000;
const MAX_POLLS = 900;

export function App() {
  const [products, setProducts] = useState(/** @type {Product[]} */ ([]));
  const [method, setMethod] = useState(/** @type {Method} */ ('upi'));
  const [order, setOrder] = useState(/** @type {ShopOrder | undefined} */ (undefined));
  const [log, setLog] = useState(/** @type {string[]} */ ([]));
  const [error, setError] = useState(/** @type {string | undefined} */ (undefined));
  /** @param {string} line */
  const write = (line) => setLog((lines) => [line, ...lines].slice(0, 50));

  useEffect(() => {
    loadProducts().then(setProducts, (e) => setError(String(e)));
  }, []);

  // The shop's own view of the order, which turns "paid" when the service's callback reaches the proxy.
  const orderId = order?.id;
  useEffect(() => {
    if (!orderId) return;
    const stop = new AbortController();
    let polls = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    const tick = async () => {
      polls += 1;
      try {
        const fresh = await loadOrder(orderId, stop.signal);
        setOrder(fresh);
        if (fresh.status === 'paid') return;
      } catch {
        if (stop.signal.aborted) return;
      }
      if (polls < MAX_POLLS) timer = setTimeout(tick, POLL_MS);
    };
    timer = setTimeout(tick, POLL_MS);
    return () => {
      stop.abort();
      clearTimeout(timer);
    };
  }, [orderId]);

  /** @param {Product} product */
  async function buy(product) {
    setError(undefined);
    try {
      const placed = await placeOrder(product.id);
      setLog([]);
      setOrder(placed);
    } catch (e) {
      setError(String(e));
    }
  }

  return (
    <>
      <header className="bar">
        <a className="brand" href="/">
          Tea &amp; Mugs
        </a>
        <nav>
          <a href="/shop">Script tag</a>
          <a href="/module">ES module</a>
          <a href="/react/">React</a>
          <a href="/strict">Strict CSP</a>
          <a href="/orders">Orders</a>
        </nav>
      </header>
      <main>
        <h1>React shop</h1>
        {error && <p role="alert">{error}</p>}
        <fieldset>
          <legend>Pay with</legend>
          {METHODS.map((m) => (
            <label key={m}>
              <input type="radio" name="method" value={m} checked={method === m} onChange={() => setMethod(m)} /> {m.toUpperCase()}
            </label>
          ))}
        </fieldset>
        <div className="products">
          {products.map((p) => (
            <div className="product" key={p.id}>
              <h2>{p.name}</h2>
              <p>{p.description}</p>
              <button type="button" onClick={() => buy(p)}>
                Pay {p.prices[CURRENCY[method]]} {CURRENCY[method]}
              </button>
            </div>
          ))}
        </div>
        {order && (
          <div className="checkout">
            <payin-checkout
              endpoint="/payin"
              orderId={order.id}
              method={method}
              autostart
              onpayin-created={(e) => write(`created ${e.detail.payment.id}`)}
              onpayin-state={(e) => write(`state ${e.detail.payment.state}`)}
              onpayin-paid={(e) => write(`paid ${e.detail.payment.amount} ${e.detail.payment.currency}`)}
              onpayin-underpaid={(e) =>
                write(`underpaid ${e.detail.payment.amount} of ${e.detail.payment.initAmount} ${e.detail.payment.currency}`)
              }
              onpayin-superseded={() => write('superseded: the amount changed')}
              onpayin-expired={() => write('expired')}
              onpayin-failed={() => write('failed')}
              onpayin-error={(e) => write(`error ${e.detail.code}`)}
            />
            <aside>
              <h2>Order {order.id}</h2>
              <p>
                The shop says:{' '}
                <span className={`status status-${order.status}`} data-shop-status>
                  {order.status}
                </span>
              </p>
              <h2>Events</h2>
              <ol className="log" data-events>
                {log.map((line, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the log only grows at its head, so the count from its end is a stable key
                  <li key={log.length - i}>{line}</li>
                ))}
              </ol>
            </aside>
          </div>
        )}
      </main>
    </>
  );
}
