# Verifying the standalone proxy's webhooks and signing order tokens in Ruby, standard library only (base64 through
# pack and unpack1: from Ruby 3.4 the base64 library needs a line in the Gemfile).
require 'json'
require 'openssl'

# headers as your server hands them over: Rails' request.headers, the Rack env (request.env), or a Hash of them.
# body the raw bytes as they came (Rails' request.raw_post, Rack's request.body.read), never the params written again.
def verify_webhook(secret, headers, body, tolerance = 300)
  named = headers.to_h { |name, value| [name.to_s.downcase.delete_prefix('http_').tr('_', '-'), value] }
  key = secret.delete_prefix('whsec_').unpack1('m')
  id, timestamp = named['webhook-id'], named['webhook-timestamp']
  return false if (Time.now.to_i - timestamp.to_i).abs > tolerance # outside the replay window
  expected = [OpenSSL::HMAC.digest('SHA256', key, "#{id}.#{timestamp}.#{body}")].pack('m0')
  named['webhook-signature'].to_s.split(' ').any? do |signature|
    signature.start_with?('v1,') && OpenSSL.fixed_length_secure_compare(expected, signature[3..]) rescue false
  end
end

def b64url(data)
  [data].pack('m0').tr('+/', '-_').delete('=')
end

def sign_order_token(secret, order_id, amount, currency, ttl = 900)
  # As the page's order-id has it, and amount such as "499.00": an Integer id or a BigDecimal total are written as text.
  amount = amount.to_s('F') if defined?(BigDecimal) && amount.is_a?(BigDecimal) # "499.0", not "0.499e3"
  claims = { orderId: order_id.to_s, amount: amount.to_s, currency: currency, exp: Time.now.to_i + ttl }
  payload = b64url(JSON.generate(claims))
  payload + '.' + b64url(OpenSSL::HMAC.digest('SHA256', secret, payload))
end

if __FILE__ == $PROGRAM_NAME
  if ARGV[0] == 'verify'
    headers = %w[webhook-id webhook-timestamp webhook-signature].to_h { |h| [h, ENV.fetch(h.upcase.tr('-', '_'))] }
    puts(verify_webhook(ENV.fetch('WEBHOOK_SECRET'), headers, $stdin.binmode.read) ? 'ok' : 'refused')
  else
    puts sign_order_token(ENV.fetch('ORDER_TOKEN_SECRET'), ARGV[1], ARGV[2], ARGV[3])
  end
end
