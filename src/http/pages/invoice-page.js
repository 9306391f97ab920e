// The public invoice page's payment form: tokenize the card or bank account with
// POST /api/v1/tokens, then pay the invoice with the single-use token. The full card
// number and CVV go only to the tokenizer and are never kept by this page.
(function () {
  'use strict';
  var form = document.getElementById('pay-form');
  if (!form) return;

  var errorBox = document.getElementById('pay-error');
  var button = document.getElementById('pay-button');
  var cardFields = document.getElementById('card-fields');
  var achFields = document.getElementById('ach-fields');
  var LABELS = {
    'card.number': 'Card number',
    'card.expiration_month': 'Expiry month',
    'card.expiration_year': 'Expiry',
    'card.cvv': 'Security code (CVV)',
    'card.holder_name': 'Name on card',
    'bank_account.routing_number': 'Routing number',
    'bank_account.account_number': 'Account number',
    'bank_account.account_type': 'Account type',
    'bank_account.holder_name': 'Account holder name',
    token: 'Payment method'
  };
  var INPUTS = {
    'card.number': 'card-number',
    'card.expiration_month': 'card-expiry',
    'card.expiration_year': 'card-expiry',
    'card.cvv': 'card-cvv',
    'card.holder_name': 'card-name',
    'bank_account.routing_number': 'ach-routing',
    'bank_account.account_number': 'ach-account',
    'bank_account.account_type': 'ach-type',
    'bank_account.holder_name': 'ach-name'
  };

  function value(id) {
    return document.getElementById(id).value.trim();
  }

  function method() {
    var checked = form.querySelector('input[name="method"]:checked');
    if (checked) return checked.value;
    return form.dataset.card === 'true' ? 'card' : 'ach';
  }

  function showMethod() {
    var m = method();
    cardFields.hidden = m !== 'card';
    achFields.hidden = m !== 'ach';
    clearError();
  }

  function clearError() {
    errorBox.hidden = true;
    errorBox.textContent = '';
    Array.prototype.forEach.call(form.querySelectorAll('[aria-invalid]'), function (el) {
      el.removeAttribute('aria-invalid');
      el.removeAttribute('aria-describedby');
    });
  }

  function showError(message, fields) {
    errorBox.textContent = message;
    errorBox.hidden = false;
    (fields || []).forEach(function (f) {
      var input = INPUTS[f.path] && document.getElementById(INPUTS[f.path]);
      if (input) {
        input.setAttribute('aria-invalid', 'true');
        input.setAttribute('aria-describedby', 'pay-error');
      }
    });
  }

  /** One readable sentence from the API's error body. */
  function describe(body, fallback) {
    var e = body && body.error;
    if (!e) return fallback;
    if (e.fields && e.fields.length) {
      return e.fields.map(function (f) { return (LABELS[f.path] || f.path) + ': ' + f.message; }).join('. ') + '.';
    }
    return e.message ? e.message.charAt(0).toUpperCase() + e.message.slice(1) + '.' : fallback;
  }

  /** "MM/YY", "MM/YYYY" or "MMYY" → [month, year]; undefined when unreadable. */
  function expiry(text) {
    var m = /^(\d{1,2})\s*\/?\s*(\d{2}|\d{4})$/.exec(text);
    return m ? [Number(m[1]), Number(m[2])] : undefined;
  }

  function tokenRequest() {
    if (method() === 'card') {
      var exp = expiry(value('card-expiry'));
      if (!exp) return { problem: { path: 'card.expiration_year', message: 'write the expiry as MM/YY' } };
      var card = {
        number: value('card-number').replace(/[\s-]/g, ''),
        expiration_month: exp[0],
        expiration_year: exp[1],
        cvv: value('card-cvv')
      };
      if (value('card-name')) card.holder_name = value('card-name');
      return { body: { card: card } };
    }
    var bank = {
      routing_number: value('ach-routing'),
      account_number: value('ach-account'),
      account_type: value('ach-type')
    };
    if (value('ach-name')) bank.holder_name = value('ach-name');
    return { body: { bank_account: bank } };
  }

  function postJson(url, body) {
    return fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body)
    }).then(function (res) {
      return res.json().catch(function () { return undefined; }).then(function (json) {
        return { ok: res.ok, status: res.status, body: json };
      });
    });
  }

  function paid(result) {
    var badge = document.getElementById('status-badge');
    badge.textContent = 'Paid';
    badge.className = 'badge badge-paid';
    document.getElementById('invoice').dataset.status = 'paid';
    document.getElementById('pay-section').hidden = true;
    document.getElementById('result-title').textContent = 'Payment received';
    document.getElementById('result-text').textContent =
      'Thank you! This invoice is paid. Transaction ' + result.transaction_id + ' (' + result.response_text + ').';
    document.getElementById('result-section').hidden = false;
  }

  Array.prototype.forEach.call(form.querySelectorAll('input[name="method"]'), function (radio) {
    radio.addEventListener('change', showMethod);
  });
  showMethod();

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    clearError();
    var req = tokenRequest();
    if (req.problem) return showError(LABELS[req.problem.path] + ': ' + req.problem.message + '.', [req.problem]);
    button.disabled = true;
    button.textContent = 'Processing…';
    postJson(form.dataset.tokenUrl, req.body)
      .then(function (tok) {
        if (!tok.ok) throw { message: describe(tok.body, 'These payment details were not accepted.'), body: tok.body };
        return postJson(form.dataset.payUrl, { token: tok.body.token });
      })
      .then(function (pay) {
        if (!pay.ok) throw { message: describe(pay.body, 'The payment could not be made.'), body: pay.body };
        if (pay.body.status === 'paid') return paid(pay.body);
        showError(pay.body.response_text + '. Nothing was charged; try another ' +
          (pay.body.payment_method === 'ach' ? 'bank account.' : 'card.'));
      })
      .catch(function (err) {
        // A thrown Error is fetch failing (offline, server gone); the rest are API answers.
        if (err instanceof Error) return showError('Network error; please check your connection and try again.');
        showError(err.message, err.body && err.body.error && err.body.error.fields);
      })
      .then(function () {
        button.disabled = false;
        button.textContent = button.dataset.label;
      });
  });
})();
