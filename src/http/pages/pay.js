// Hosted pay page: load the link (public retrieval → session token), tokenize the card
// or bank account through POST /api/v1/tokens, pay with the session token, then follow
// redirect_url. Errors are shown next to the field they name. Card data is sent only to
// the tokenizer and never logged or kept.
(function () {
  'use strict';

  var linkId = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() || '');
  var link = null;
  var session = null;

  var $ = function (id) { return document.getElementById(id); };
  var money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
  var formatCents = function (cents) { return money.format(cents / 100); };

  function notice(text, kind) {
    var n = $('notice');
    n.textContent = text;
    n.className = 'notice' + (kind ? ' ' + kind : '');
    n.hidden = false;
  }

  function fields() {
    return Array.prototype.slice.call(document.querySelectorAll('[data-field]'));
  }

  function clearErrors() {
    $('form-error').hidden = true;
    $('form-error').textContent = '';
    fields().forEach(function (el) {
      el.removeAttribute('aria-invalid');
      var msg = $(el.id + '-error');
      if (msg) msg.textContent = '';
    });
  }

  /** Put each problem next to its field; the rest (and a summary) in the form's error box. */
  function showErrors(message, problems) {
    var unplaced = [];
    var first = null;
    (problems || []).forEach(function (p) {
      var el = fields().find(function (f) {
        return !f.closest('[hidden]') && f.getAttribute('data-field').split(' ').indexOf(p.path) !== -1;
      });
      var msg = el && $(el.id + '-error');
      if (el && msg) {
        el.setAttribute('aria-invalid', 'true');
        msg.textContent = (msg.textContent ? msg.textContent + '; ' : '') + p.message;
        first = first || el;
      } else {
        unplaced.push(p.path + ': ' + p.message);
      }
    });
    var box = $('form-error');
    box.textContent = [message].concat(unplaced).filter(Boolean).join(' — ');
    box.hidden = !box.textContent;
    (first || box).scrollIntoView({ block: 'center' });
    if (first) first.focus();
  }

  function value(id) { return $(id).value.trim(); }

  async function api(method, path, body, headers) {
    var init = { method: method, headers: Object.assign({ Accept: 'application/json' }, headers || {}) };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    var res = await fetch(path, init);
    var data = null;
    try { data = await res.json(); } catch (e) { data = null; }
    return { status: res.status, data: data, headers: res.headers };
  }

  async function loadLink() {
    var r = await api('GET', '/api/v1/payment-links/' + encodeURIComponent(linkId));
    if (r.status !== 200) throw new Error((r.data && r.data.error && r.data.error.message) || 'this payment link could not be loaded');
    link = r.data;
    session = link.session_token;
    return link;
  }

  function render() {
    document.title = 'Pay: ' + link.description;
    $('description').textContent = link.description;
    $('amount').textContent = link.open_amount ? 'Amount of your choice' : formatCents(link.amount);
    var receipt = $('receipt');
    if (link.status === 'paid' && receipt) {
      // Filled in by the server: amount, card brand and last four, transaction id, date.
      receipt.hidden = false;
      $('pay-form').hidden = true;
      // An open-amount link shows what was paid, not "Amount of your choice".
      $('amount').textContent = receipt.querySelector('[data-testid=receipt-amount]').textContent;
      return;
    }
    if (link.status !== 'available') {
      var why = { paid: 'This payment link has been paid. Thank you!', deactivated: 'This payment link is no longer active.', expired: 'This payment link has expired.' };
      notice(why[link.status] || 'This payment link cannot be paid.', link.status === 'paid' ? 'success' : 'problem');
      $('pay-form').hidden = true;
      return;
    }
    $('pay-form').hidden = false;
    $('amount-group').hidden = !link.open_amount;
    $('method-group').hidden = !(link.card_enabled && link.ach_enabled);
    if (!link.card_enabled) document.querySelector('input[name="method"][value="bank"]').checked = true;
    toggleMethod();
    updateButton();
  }

  function method() {
    return document.querySelector('input[name="method"]:checked').value;
  }

  function toggleMethod() {
    $('card-fields').hidden = method() !== 'card';
    $('bank-fields').hidden = method() !== 'bank';
  }

  /** "25", "25.5", "25.50" → cents, or null. */
  function parseAmount(text) {
    var m = /^\$?\s*(\d{1,14})(?:\.(\d{1,2}))?$/.exec(text.trim());
    if (!m) return null;
    return Number(m[1]) * 100 + Number((m[2] || '0').padEnd(2, '0'));
  }

  function updateButton() {
    var cents = link.open_amount ? parseAmount(value('open-amount')) : link.amount;
    $('pay-button').textContent = cents ? 'Pay ' + formatCents(cents) : 'Pay';
  }

  /** Required fields that are empty, as API-style problems. */
  function missing() {
    return fields()
      .filter(function (el) { return el.hasAttribute('data-required') && !el.closest('[hidden]') && !el.value.trim(); })
      .map(function (el) { return { path: el.getAttribute('data-field').split(' ')[0], message: 'is required' }; });
  }

  function tokenBody() {
    if (method() === 'bank') {
      return {
        bank_account: {
          routing_number: value('bank-routing').replace(/\D/g, ''),
          account_number: value('bank-account').replace(/\D/g, ''),
          account_type: $('bank-type').value,
          holder_name: value('bank-name') || undefined,
        },
      };
    }
    var exp = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(value('card-expiry'));
    return {
      card: {
        number: value('card-number').replace(/[\s-]/g, ''),
        expiration_month: exp ? Number(exp[1]) : 0,
        expiration_year: exp ? Number(exp[2]) : 0,
        cvv: value('card-cvv'),
        holder_name: value('card-name') || undefined,
      },
    };
  }

  function billingAddress() {
    var a = {
      first_name: value('first-name'),
      last_name: value('last-name'),
      email: value('email'),
      line_1: value('line-1'),
      city: value('city'),
      subdivision: value('subdivision').toUpperCase(),
      postal_code: value('postal-code'),
      country: $('country').value,
    };
    if (value('company')) a.company = value('company');
    if (value('line-2')) a.line_2 = value('line-2');
    if (value('phone')) a.phone = value('phone');
    return a;
  }

  function retryAfterText(r) {
    var s = Number(r.headers.get('Retry-After'));
    return s > 0 ? ' Try again in ' + s + ' second' + (s === 1 ? '' : 's') + '.' : '';
  }

  async function pay(event) {
    event.preventDefault();
    clearErrors();
    var problems = missing();
    var amount;
    if (link.open_amount) {
      amount = parseAmount(value('open-amount'));
      if (!amount) problems.unshift({ path: 'amount', message: 'enter an amount like 25.00' });
    }
    if (method() === 'card' && value('card-expiry') && !/^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.test(value('card-expiry'))) {
      problems.push({ path: 'card.expiration_month', message: 'write the expiry as MM/YY' });
    }
    if (problems.length) return showErrors('Please check the highlighted fields.', problems);

    var button = $('pay-button');
    button.disabled = true;
    var label = button.textContent;
    button.textContent = 'Processing…';
    try {
      var tok = await api('POST', '/api/v1/tokens', tokenBody());
      if (tok.status !== 200) {
        return showErrors(tok.status === 400 ? 'Please check your payment details.' : 'The payment details could not be checked.', tok.data && tok.data.error && tok.data.error.fields);
      }
      var body = { token: tok.data.token, billing_address: billingAddress() };
      if (link.open_amount) body.amount = amount;
      var path = '/api/v1/payment-links/' + encodeURIComponent(linkId) + '/pay';
      var r = await api('POST', path, body, { Authorization: session || '' });
      if (r.status === 401) {
        // The session token expired (30 minutes): fetch a fresh one and try once more.
        await loadLink();
        if (link.status !== 'available') return render();
        r = await api('POST', path, body, { Authorization: session || '' });
      }
      if (r.status === 200) {
        $('pay-form').hidden = true;
        notice('Payment received. Thank you! Redirecting…', 'success');
        location.assign(r.data.redirect_url);
        return;
      }
      var err = (r.data && r.data.error) || {};
      if (r.status === 429) return showErrors('Too many payment attempts from this connection.' + retryAfterText(r));
      if (err.code === 'payment_declined') {
        return showErrors('Your payment was declined (' + String(err.response_text || '').replace(/^Declined:\s*/i, '') + '). Nothing was charged; please try another card or account.');
      }
      if (r.status === 400 && /no longer available/.test(err.message || '')) {
        await loadLink();
        return render();
      }
      showErrors(err.message || 'The payment could not be completed.', err.fields);
    } catch (e) {
      showErrors('The payment could not be completed: the connection failed. Please try again.');
    } finally {
      button.disabled = false;
      button.textContent = label;
    }
  }

  document.addEventListener('DOMContentLoaded', function () {
    Array.prototype.forEach.call(document.querySelectorAll('input[name="method"]'), function (r) {
      r.addEventListener('change', toggleMethod);
    });
    $('open-amount').addEventListener('input', updateButton);
    $('pay-form').addEventListener('submit', pay);
    if ($('print-receipt')) $('print-receipt').addEventListener('click', function () { window.print(); });
    loadLink().then(render, function (e) {
      $('description').textContent = '';
      notice(e.message, 'problem');
    });
  });
})();
