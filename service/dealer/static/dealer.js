// The dealer's screen's keyboard and card entry. Each button that has a key shows it and carries it
// in data-key; a key pressed outside a text field presses that button (or, for a decision that
// takes an amount, puts the cursor in its amount, where Enter sends it). A card is two keystrokes
// (rank, suit) typed into the card field, by hand or by a card reader; it is sent as soon as it is whole.
(function () {
  "use strict";
  var CARD = /^(?:[A2-9TJQK]|10)[SHDC]$/;

  function visible(element) {
    return element.offsetParent !== null || element === document.activeElement;
  }

  function buttonFor(key) {
    var screen = document.getElementById("screen");
    if (!screen) { return null; }
    var found = screen.querySelectorAll("[data-key]");
    for (var i = 0; i < found.length; i += 1) {
      if (found[i].getAttribute("data-key").toLowerCase() === key && visible(found[i]) && !found[i].disabled) {
        return found[i];
      }
    }
    return null;
  }

  function typing(target) {
    return target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT");
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) { return; }
    var key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    if (key === "/") {
      var card = document.getElementById("card-input");
      if (card) { event.preventDefault(); card.focus(); }
      return;
    }
    if (key === "Enter") { return; }   // Enter presses the focused button, as a browser does
    var button = buttonFor(key);
    if (!button) { return; }
    event.preventDefault();
    var amount = button.form ? button.form.querySelector("input[name=amount]") : null;
    if (amount) {
      amount.focus();
      amount.select();
    } else {
      button.click();
    }
  });

  function sendIfWhole(input) {
    var value = input.value.replace(/\s+/g, "").toUpperCase();
    if (value !== input.value) { input.value = value; }
    var whole = Number(input.getAttribute("data-autosend") || "0");
    if (whole && CARD.test(value) && input.form && !input.form.hasAttribute("data-sent")) {
      input.form.setAttribute("data-sent", "");
      input.form.requestSubmit();
    }
  }

  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches("input[name=card][data-autosend]")) {
      sendIfWhole(event.target);
    }
  });

  document.addEventListener("click", function (event) {
    var pad = event.target.closest ? event.target.closest("[data-rank], [data-suit]") : null;
    if (!pad) { return; }
    var input = document.getElementById("card-input");
    if (!input) { return; }
    if (pad.hasAttribute("data-rank")) {
      input.value = pad.getAttribute("data-rank");
      input.focus();
    } else if (/^(?:[A2-9TJQK]|10)$/.test(input.value)) {
      input.value += pad.getAttribute("data-suit");
      sendIfWhole(input);
    } else {
      input.focus();
    }
  });

  // After each swap the focus goes where the next touch is: the field or button marked autofocus,
  // else the first decision, so Enter and the keys work without a pointer.
  document.addEventListener("htmx:afterSettle", function () {
    var screen = document.getElementById("screen");
    if (!screen || (document.activeElement && screen.contains(document.activeElement) &&
                    document.activeElement !== document.body)) { return; }
    var next = screen.querySelector("[autofocus]") || screen.querySelector(".decision-button") ||
               screen.querySelector("input[name=wager], input[name=stake]");
    if (next) { next.focus(); }
  });
}());
