#!/usr/bin/python3
"""A real browser for the web center's tests: headless Chromium through chromedriver (Selenium), driven by
JSON lines on standard input, one answer line each on standard output.

    {"op": "open", "url": "http://127.0.0.1:PORT/login?code=…"}
    {"op": "wait", "css": ".notification[data-id='tea']", "text": "Tea", "timeout": 5}   -> the element's text
    {"op": "click", "css": "button[data-action='accept']"}
    {"op": "type", "css": "input[data-action='decline']", "text": "Dentist\\n"}
    {"op": "gone", "css": "li[data-id='tea']"}    {"op": "count", "css": ".notification"}          {"op": "text", "css": "#login"}
    {"op": "script", "source": "return document.title"}
    {"op": "tab"} (a new tab, switched to)            {"op": "switch", "index": 0}
    {"op": "scheme", "dark": true}                    {"op": "size", "width": 390, "height": 844}
    {"op": "keys", "keys": ["TAB", "ENTER"]}  (pressed on whatever has the focus, as a keyboard user would)
    {"op": "attribute", "css": "li[data-id='tea'] img", "name": "src"}
    {"op": "grant", "permission": "notifications"}    (the browser's permission, as if the user allowed it)
    {"op": "push", "data": "{…}"}   (a push message to the origin's service worker, as its push service would bring it)
    {"op": "screenshot", "path": "/tmp/center.png"}   {"op": "quit"}

Each answer is {"ok": true, "value": …} or {"ok": false, "error": "…"}; nothing else is printed."""
import json
import sys
import time

from selenium import webdriver
from selenium.common.exceptions import ElementNotInteractableException, StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

options = webdriver.ChromeOptions()
for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=900,1000", "--lang=" + (sys.argv[1] if len(sys.argv) > 1 else "en-US")]:
    options.add_argument(argument)
options.add_experimental_option("prefs", {"intl.accept_languages": sys.argv[1] if len(sys.argv) > 1 else "en-US"})
options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def wait(command):
    deadline = time.monotonic() + command.get("timeout", 5)
    while True:
        try:
            for element in driver.find_elements(By.CSS_SELECTOR, command["css"]):
                if element.is_displayed() and command.get("text", "") in element.text:
                    return element.text
        except WebDriverException:
            pass
        if time.monotonic() > deadline:
            shown = driver.find_element(By.TAG_NAME, "body").text[:2000]
            console = "; ".join(entry["message"] for entry in driver.get_log("browser"))[:2000]
            raise TimeoutError(f"no {command['css']} showing {command.get('text', '')!r} within {command.get('timeout', 5)} s; the page shows: {shown}; its console: {console}")
        time.sleep(0.05)


def act(command, action):
    """Acts on the element once it shows; again if the page replaced it meanwhile (it re-renders live)."""
    deadline = time.monotonic() + command.get("timeout", 5)
    while True:
        wait({"css": command["css"], "timeout": max(0.1, deadline - time.monotonic())})
        try:
            return action(driver.find_element(By.CSS_SELECTOR, command["css"]))
        except (StaleElementReferenceException, ElementNotInteractableException):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def run(command):
    op = command["op"]
    if op == "open":
        driver.get(command["url"])
    elif op == "wait":
        return wait(command)
    elif op == "click":
        act(command, lambda element: element.click())
    elif op == "type":
        act(command, lambda element: element.send_keys(command["text"]))
    elif op == "gone":
        deadline = time.monotonic() + command.get("timeout", 5)
        while True:
            try:
                if not any(e.is_displayed() for e in driver.find_elements(By.CSS_SELECTOR, command["css"])):
                    break
            except StaleElementReferenceException:
                pass  # replaced by a redraw between finding and asking: look again
            if time.monotonic() > deadline:
                raise TimeoutError(f"{command['css']} still shows after {command.get('timeout', 5)} s")
            time.sleep(0.05)
    elif op == "count":
        # The page redraws live: an element found may be replaced before it is asked whether it shows.
        for _ in range(20):
            try:
                return len([e for e in driver.find_elements(By.CSS_SELECTOR, command["css"]) if e.is_displayed()])
            except StaleElementReferenceException:
                time.sleep(0.05)
        raise TimeoutError(f"{command['css']} kept changing")
    elif op == "text":
        return driver.find_element(By.CSS_SELECTOR, command["css"]).text
    elif op == "script":
        return driver.execute_script(command["source"])
    elif op == "tab":
        driver.switch_to.new_window("tab")
    elif op == "switch":
        driver.switch_to.window(driver.window_handles[command["index"]])
    elif op == "scheme":
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark" if command["dark"] else "light"}]})
    elif op == "size":
        driver.set_window_size(command["width"], command["height"])
    elif op == "keys":
        chain = ActionChains(driver)
        for key in command["keys"]:
            chain.send_keys(getattr(Keys, key) if hasattr(Keys, key) else key)
        chain.perform()
    elif op == "attribute":
        return driver.find_element(By.CSS_SELECTOR, command["css"]).get_attribute(command["name"])
    elif op == "grant":
        origin = driver.execute_script("return location.origin")
        driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": origin, "permissions": [command["permission"]]})
    elif op == "push":
        # DevTools names a service worker registration by an id pages never see. A new profile numbers
        # registrations from 0, and the page registers one worker: the first id that takes the message.
        origin = driver.execute_script("return location.origin")
        driver.execute_cdp_cmd("ServiceWorker.enable", {})
        failures = []
        for registration in range(4):
            try:
                driver.execute_cdp_cmd("ServiceWorker.deliverPushMessage", {"origin": origin, "registrationId": str(registration), "data": command["data"]})
                return registration
            except WebDriverException as error:
                failures.append(str(error).splitlines()[0])
        raise RuntimeError(f"no service worker registration took the push: {failures}")
    elif op == "screenshot":
        height = driver.execute_script("return document.documentElement.scrollHeight")
        size = driver.get_window_size()
        driver.set_window_size(size["width"], max(300, min(height + 140, 2400)))
        driver.save_screenshot(command["path"])
        driver.set_window_size(size["width"], size["height"])
    elif op == "quit":
        driver.quit()
        raise SystemExit(0)
    else:
        raise ValueError(f"unknown op {op}")
    return None


for line in sys.stdin:
    try:
        answer = {"ok": True, "value": run(json.loads(line))}
    except SystemExit:
        print(json.dumps({"ok": True, "value": None}), flush=True)
        break
    except Exception as error:  # every failure is an answer, so the test can say what the page showed
        answer = {"ok": False, "error": f"{type(error).__name__}: {error}"}
    print(json.dumps(answer), flush=True)
driver.quit()
