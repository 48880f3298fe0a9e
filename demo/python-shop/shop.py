"""A tiny shop whose backend is Python (the standard library only), taking payins through the standalone proxy.

It prices each order with a signed order token that its checkout page renders on the element, and it learns
that an order is paid from the proxy's webhooks, verified with the same functions docs/standalone.md shows
(examples/standalone/payin.py). An order's total grows with its items, and a token is a price quote that any page
holding it can pay until it expires: so the shop ships only a payment of the order's total as it is now, and a
payment of an older, smaller total (a page kept open while the cart grew in another tab) is left for someone to
look at.
Run it next to `npx payin-checkout proxy`, the two sharing the order token's key and the webhook secret; the
proxy sends its webhooks here and lets this shop's pages (another origin than its own) call it:

    PAYIN_BASE_URL=... PAYIN_MERCHANT_ID=... PAYIN_TOKEN=... PAYIN_SECRET=... \
    PAYIN_CALLBACK_URL=http://127.0.0.1:8787/payin/callback PAYIN_ORDER_TOKEN_SECRET=... \
    PAYIN_WEBHOOK_URL=http://127.0.0.1:8000/payin-webhook PAYIN_WEBHOOK_SECRET=whsec_... \
    PAYIN_ALLOWED_ORIGINS=http://127.0.0.1:8000 npx payin-checkout proxy

    PAYIN_PROXY_URL=http://127.0.0.1:8787 PAYIN_ORDER_TOKEN_SECRET=... PAYIN_WEBHOOK_SECRET=whsec_... \
    WIDGET_JS=dist/payin-checkout.iife.js PORT=8000 python3 demo/python-shop/shop.py
"""
import html
import json
from decimal import Decimal
import os
import re
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "standalone"))
from payin import sign_order_token, verify_webhook  # noqa: E402

PROXY = os.environ["PAYIN_PROXY_URL"].rstrip("/")
TOKEN_SECRET = os.environ["PAYIN_ORDER_TOKEN_SECRET"]
WEBHOOK_SECRET = os.environ["PAYIN_WEBHOOK_SECRET"]
WIDGET_JS = Path(os.environ.get("WIDGET_JS", "dist/payin-checkout.iife.js"))
ITEM_PRICE, CURRENCY = Decimal("499.00"), "INR"

orders = {}  # order id -> {"status": ..., "items": n, "announcements": [...]}


def order_of(order_id):
    return orders.setdefault(order_id, {"status": "new", "items": 1, "announcements": []})


def total_of(order):
    return f"{ITEM_PRICE * order['items']:.2f}"


class Shop(BaseHTTPRequestHandler):
    def do_GET(self):
        # The script, and the parts and languages it loads from beside itself (a phone's app buttons, Hindi, ...).
        if re.fullmatch(r"/payin-checkout\.[a-z-]+(\.part)?\.js", self.path):
            file = WIDGET_JS.parent / self.path[1:]
            if file.is_file():
                return self.send(200, file.read_bytes(), "text/javascript")
        if self.path.startswith("/orders/"):
            order = orders.get(self.path[len("/orders/"):])
            return self.send(200 if order else 404, json.dumps(order or {}).encode(), "application/json")
        if self.path.startswith("/checkout/"):
            order_id = self.path[len("/checkout/"):]
            total = total_of(order_of(order_id))
            token = sign_order_token(TOKEN_SECRET, order_id, total, CURRENCY)
            page = f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Python shop: {html.escape(order_id)}</title>
<script src="/payin-checkout.iife.js" defer></script></head>
<body><h1>Order {html.escape(order_id)}: {total} {CURRENCY}</h1>
<payin-checkout endpoint="{PROXY}/payin" order-id="{html.escape(order_id)}" order-token="{token}" method="upi" autostart></payin-checkout>
</body></html>"""
            return self.send(200, page.encode(), "text/html; charset=utf-8")
        self.send(404, b"not found", "text/plain")

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        item = re.fullmatch(r"/orders/([^/]+)/items", self.path)
        if item:  # one more item in the cart: the order's total grows
            order = order_of(item[1])
            order["items"] += 1
            return self.send(200, json.dumps(order).encode(), "application/json")
        if self.path != "/payin-webhook":
            return self.send(404, b"not found", "text/plain")
        headers = {name: self.headers.get(name, "") for name in ("webhook-id", "webhook-timestamp", "webhook-signature")}
        if not verify_webhook(WEBHOOK_SECRET, headers, body):
            return self.send(401, b"bad signature", "text/plain")
        payment = json.loads(body)["data"]
        order = order_of(payment["orderId"])
        order["announcements"].append({"id": headers["webhook-id"], "outcome": payment["outcome"], "amount": payment["amount"]})
        if payment["outcome"] == "paid" and not payment.get("secondPaymentOf") and order["status"] != "paid":
            # Paid, but perhaps a quote of an older, smaller total: ship only an order that was paid in full.
            whole = payment["currency"] == CURRENCY and Decimal(payment["amount"]) >= Decimal(total_of(order))
            order["status"] = "paid" if whole else "paid-less-than-total"  # ship here, once; or look at it
        self.send(204, b"", "text/plain")

    def send(self, status, body, content_type):
        self.send_response(status)
        self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", int(os.environ.get("PORT", "8000"))), Shop)
    print(f"python shop on http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()
