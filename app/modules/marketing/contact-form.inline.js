// The contact form's browser behaviour on a page served without React (ADR 0011). Inlined verbatim into
// /contact (imported with ?raw), so it is plain browser JavaScript with no imports.
// - Consent unchecked: the submit button reads as disabled; submitting anyway shows the inline alert and
//   the 'Consent Required' toast instead of sending. Checking the box clears the marking.
// - Sending: the button is disabled and reads 'Sending…' until the server answers.
(function () {
  var form = document.querySelector("form[data-contact-form]");
  if (!form) return;
  var consent = form.querySelector("input[name=consent]");
  var button = form.querySelector("button[type=submit]");
  var alert = document.getElementById("consent-error");
  var toast = document.getElementById("consent-toast");
  var label = button.textContent;
  function sync() {
    button.setAttribute("aria-disabled", String(!consent.checked));
    button.classList.toggle("opacity-60", !consent.checked);
    if (consent.checked) {
      alert.hidden = true;
      consent.removeAttribute("aria-invalid");
      consent.removeAttribute("aria-describedby");
    }
  }
  consent.addEventListener("change", sync);
  sync();
  form.addEventListener("submit", function (event) {
    if (!consent.checked) {
      event.preventDefault();
      alert.hidden = false;
      consent.setAttribute("aria-invalid", "true");
      consent.setAttribute("aria-describedby", "consent-error");
      // A fresh copy restarts the toast's fade-out, and screen readers announce the new status.
      var fresh = toast.cloneNode(true);
      fresh.hidden = false;
      toast.replaceWith(fresh);
      toast = fresh;
      return;
    }
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    button.textContent = button.getAttribute("data-busy-label");
  });
  // Back/forward cache: a page restored after sending gets its button back.
  window.addEventListener("pageshow", function () {
    button.disabled = false;
    button.removeAttribute("aria-busy");
    button.textContent = label;
  });
})();
