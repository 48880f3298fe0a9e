<?php
// Verifying the standalone proxy's webhooks and signing order tokens in PHP 7.4 or later, standard library only.

// $headers as your server hands them over: getallheaders() (PHP-FPM names them Webhook-Id), $_SERVER, or a
// framework's $request->headers->all(); $body the raw bytes (file_get_contents('php://input')).
function verify_webhook(string $secret, array $headers, string $body, int $tolerance = 300): bool {
    $named = [];
    foreach ($headers as $name => $value) {
        $named[strtr(preg_replace('/^http_/', '', strtolower($name)), '_', '-')] = is_array($value) ? reset($value) : $value;
    }
    $key = base64_decode(substr($secret, strlen('whsec_')));
    $id = $named['webhook-id'] ?? '';
    $timestamp = $named['webhook-timestamp'] ?? '';
    if (abs(time() - (int) $timestamp) > $tolerance) return false; // outside the replay window
    $expected = base64_encode(hash_hmac('sha256', "$id.$timestamp.$body", $key, true));
    foreach (explode(' ', (string) ($named['webhook-signature'] ?? '')) as $signature) {
        if (substr($signature, 0, 3) === 'v1,' && hash_equals($expected, substr($signature, 3))) return true;
    }
    return false;
}

function b64url(string $data): string {
    return rtrim(strtr(base64_encode($data), '+/', '-_'), '=');
}

function sign_order_token(string $secret, string $orderId, string $amount, string $currency, int $ttl = 900): string {
    $claims = ['orderId' => $orderId, 'amount' => $amount, 'currency' => $currency, 'exp' => time() + $ttl];
    $payload = b64url(json_encode($claims, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE));
    return $payload . '.' . b64url(hash_hmac('sha256', $payload, $secret, true));
}

if (PHP_SAPI === 'cli' && realpath($argv[0]) === __FILE__) {
    if ($argv[1] === 'verify') {
        $headers = ['webhook-id' => getenv('WEBHOOK_ID'), 'webhook-timestamp' => getenv('WEBHOOK_TIMESTAMP'), 'webhook-signature' => getenv('WEBHOOK_SIGNATURE')];
        echo verify_webhook(getenv('WEBHOOK_SECRET'), $headers, file_get_contents('php://stdin')) ? "ok\n" : "refused\n";
    } else {
        echo sign_order_token(getenv('ORDER_TOKEN_SECRET'), $argv[2], $argv[3], $argv[4]), "\n";
    }
}
