# Verifying the standalone proxy's webhooks and signing order tokens in Python, standard library only.
import base64, hashlib, hmac, json, time

def verify_webhook(secret, headers, body, tolerance=300):
    """True when the webhook is from your payin proxy: body is the raw bytes, headers the request's headers in
    any form (request.headers, a dict of them, Django's request.META)."""
    named = {name.lower().removeprefix("http_").replace("_", "-"): value for name, value in headers.items()}
    key = base64.b64decode(secret.removeprefix("whsec_"))
    msg_id, timestamp = named.get("webhook-id", ""), named.get("webhook-timestamp", "")
    if not (timestamp.isascii() and timestamp.isdigit()) or abs(time.time() - int(timestamp)) > tolerance:
        return False  # no time, or outside the replay window
    signed = f"{msg_id}.{timestamp}.".encode() + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    # As bytes: compare_digest raises on a str with a letter outside ASCII, which anyone can send.
    return any(hmac.compare_digest(expected.encode(), s[3:].encode()) for s in named.get("webhook-signature", "").split() if s.startswith("v1,"))

def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

def sign_order_token(secret, order_id, amount, currency, ttl=900):
    """The value of the element's order-token attribute: the price this page may be paid.

    order_id as the page's order-id has it, amount such as "499.00": an int id, a Decimal or a float are written as text.
    """
    claims = {"orderId": str(order_id), "amount": str(amount), "currency": currency, "exp": int(time.time()) + ttl}
    payload = b64url(json.dumps(claims, separators=(",", ":")).encode())
    return payload + "." + b64url(hmac.new(secret.encode(), payload.encode(), hashlib.sha256).digest())

if __name__ == "__main__":
    import os, sys
    if sys.argv[1] == "verify":
        headers = {k: os.environ[k.upper().replace("-", "_")] for k in ("webhook-id", "webhook-timestamp", "webhook-signature")}
        print("ok" if verify_webhook(os.environ["WEBHOOK_SECRET"], headers, sys.stdin.buffer.read()) else "refused")
    else:
        print(sign_order_token(os.environ["ORDER_TOKEN_SECRET"], sys.argv[2], sys.argv[3], sys.argv[4]))
