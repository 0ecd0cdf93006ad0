// The apps' badges, as a home screen shows them: the total in the tab's title and on its icon.
import { t } from "./texts.js";

let shownTotal = -1;

export function showBadges(state) {
  const total = [...state.apps.values()].reduce((sum, info) => sum + (info.badge ?? 0), 0);
  document.title = total > 0 ? `(${total}) ${t("title")} — Chime` : `${t("title")} — Chime`;
  if (total === shownTotal) return;
  shownTotal = total;
  drawIcon(total);
}

/** The tab's icon: Chime's bell, with a red badge holding the total when there is one. */
function drawIcon(total) {
  const link = document.querySelector("link[rel='icon']");
  if (total === 0) {
    link.href = "/web/icon.svg";
    return;
  }
  const bell = new Image();
  bell.onload = () => {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 64;
    const context = canvas.getContext("2d");
    context.drawImage(bell, 0, 0, 64, 64);
    const label = total > 99 ? "99+" : String(total);
    context.fillStyle = "#e0245e";
    context.beginPath();
    context.arc(44, 20, 20, 0, 2 * Math.PI);
    context.fill();
    context.fillStyle = "#ffffff";
    context.font = `bold ${label.length > 2 ? 16 : 24}px sans-serif`;
    context.textAlign = "center";
    context.textBaseline = "middle";
    context.fillText(label, 44, 21);
    link.href = canvas.toDataURL("image/png");
    link.dataset.badge = String(total);
  };
  bell.src = "/web/icon.svg";
}
