"""The "Use in your app" panel: the server's exports of the live settings, and links that open with them."""

from __future__ import annotations

from playwright.sync_api import expect

from conftest import SCREENSHOTS
from feedpage import wait_event, wait_items


def set_field(page, name: str, value: str) -> None:
    field = page.locator(f"#controls input[name={name}]")
    field.fill(value)
    field.press("Enter")
    field.blur()


def test_a_copied_link_opens_a_new_page_with_the_same_settings(start_server, open_page):
    server = start_server(preset="playground")
    page, probe = open_page(server)
    wait_items(page, 30)
    link = page.locator("#export-url")
    expect(link).to_contain_text("preset=playground")
    set_field(page, "bottomThreshold", "1500")
    wait_event(page, "configChanged")
    set_field(page, "retryMax", "7")
    wait_event(page, "configChanged", 2)
    # The panel follows the settings: all three exports carry both.
    expect(link).to_contain_text("bottomThreshold=1500")
    expect(link).to_contain_text("retryMax=7")
    expect(page.locator("#export-flags")).to_contain_text("--bottom-threshold 1500 ")
    expect(page.locator("#export-flags")).to_contain_text("--retry-max 7")
    expect(page.locator("#export-swift")).to_contain_text("settings.bottomThreshold = 1500")
    expect(page.locator("#export-swift")).to_contain_text("settings.retryMax = 7")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.click("#export-copy-url")
    expect(page.locator("#export-copy-url")).to_have_text("Copied")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == link.text_content()
    assert copied.startswith(server.url + "?preset=playground&")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#export-panel").screenshot(path=str(SCREENSHOTS / "export-panel-1440.png"))

    other, other_probe = open_page(server, query=copied[len(server.url):])
    config = other.evaluate("window.playground.config")
    assert config["bottomThreshold"] == 1500
    assert config["retryMax"] == 7
    assert config["preset"] == "playground"
    expect(other.locator("#controls input[name=bottomThreshold]")).to_have_value("1500")
    expect(other.locator("#export-url")).to_have_text(copied)
    expect(other.locator("#link-notice")).to_be_hidden()
    assert probe.problems() == [], "\n".join(probe.problems())
    assert other_probe.problems() == [], "\n".join(other_probe.problems())


def test_a_refused_value_in_a_link_shows_the_servers_message(start_server, open_page):
    server = start_server(preset="playground")
    page, _ = open_page(server, query="?preset=chat&retryMax=500&bottomThreshold=900")
    note = page.locator("#link-notice")
    expect(note).to_be_visible()
    expect(note).to_contain_text("retryMax=500")
    expect(note).to_contain_text("retryMax must be in 0…100")
    # The rest of the link still applies; the refused value is left out, not guessed.
    config = page.evaluate("window.playground.config")
    assert config["preset"] == "chat"
    assert config["bottomThreshold"] == 900
    assert config["retryMax"] != 500
    expect(page.locator("#export-url")).not_to_contain_text("retryMax")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "link-notice-refused.png"))


def test_the_panel_on_a_phone(start_server, open_page):
    server = start_server(preset="playground")
    page, probe = open_page(server, width=390, height=844, touch=True, query="?bottomThreshold=1200")
    page.click(".tab[data-tab=settings]")
    panel = page.locator("#export-panel")
    expect(panel).to_be_visible()
    expect(page.locator("#export-url")).to_contain_text("bottomThreshold=1200")
    box = panel.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    panel.scroll_into_view_if_needed()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    panel.screenshot(path=str(SCREENSHOTS / "export-panel-390.png"))
    assert probe.problems() == [], "\n".join(probe.problems())


def test_compare_mode_is_left_out_of_every_export(start_server, open_page):
    """Compare mode is how you look at one session, not a tuning: no export writes it (issue 40 §3)."""
    server = start_server(preset="playground")
    page, probe = open_page(server)
    wait_items(page, 30)
    page.locator("#presets-compare input[name=compare]").check()
    wait_event(page, "configChanged")
    set_field(page, "loadLatencyMs", "300")
    wait_event(page, "configChanged", 2)
    flags = page.locator("#export-flags")
    expect(flags).to_contain_text("--load-latency-ms 300")
    expect(page.locator("#export-swift")).to_contain_text("loadLatencyMs=300")
    expect(page.locator("#export-url")).to_contain_text("loadLatencyMs=300")
    for format in ("swift", "flags", "url"):
        assert "compare" not in page.locator(f"#export-{format}").text_content(), format
    assert probe.problems() == [], "\n".join(probe.problems())


def test_the_settings_form_is_the_servers_description(start_server, open_page):
    """Every setting `welcome.settings` describes has its field, with its range; the page lists none itself."""
    server = start_server(preset="playground")
    page, probe = open_page(server)
    wait_items(page, 30)
    settings = page.evaluate(
        """async () => {
            const ws = new WebSocket(location.origin.replace("http", "ws") + "/ws", "scroll-playground.v1");
            await new Promise((resolve) => ws.addEventListener("open", resolve));
            const welcome = new Promise((resolve) => ws.addEventListener("message", (e) => resolve(JSON.parse(e.data))));
            ws.send(JSON.stringify({ type: "hello", version: 1 }));
            const msg = await welcome;
            ws.close();
            return msg.settings;
        }"""
    )
    names = [s["name"] for s in settings]
    assert "contentSize" in names and "compare" in names and "bottomThreshold" in names
    for setting in settings:
        if setting["name"] == "preset":
            continue
        # Compare mode's switch sits with the presets, still one of the form's fields (form=controls).
        field = page.locator(f"#controls [name={setting['name']}], #presets-compare [name={setting['name']}]")
        expect(field).to_have_count(1)
        if setting["kind"] in ("number", "integer"):
            assert field.get_attribute("min") == str(setting["min"]).removesuffix(".0")
            assert field.get_attribute("max") == str(setting["max"]).removesuffix(".0")
        if setting["kind"] == "choice":
            assert field.locator("option").all_text_contents() == setting["choices"]
    # The field the page lacked before: contentSize, filled from the session's config.
    expect(page.locator("#controls select[name=contentSize]")).to_have_value("exact")
    page.select_option("#controls select[name=contentSize]", "lazyEstimate")
    wait_event(page, "configChanged")
    assert page.evaluate("window.playground.config")["contentSize"] == "lazyEstimate"
    assert probe.problems() == [], "\n".join(probe.problems())
