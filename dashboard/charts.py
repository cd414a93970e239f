"""Altair charts of the per-model deviation rates (points with Wilson 95% interval bars)."""

from __future__ import annotations

import altair as alt
import pandas as pd

from dashboard import texts

_TOOLTIP = [
    alt.Tooltip("model_id:N", title=texts.AXIS_MODEL),
    alt.Tooltip("turns:Q", title="턴"),
    alt.Tooltip("deviations:Q", title="이탈"),
    alt.Tooltip("deviation_rate:Q", title=texts.AXIS_RATE, format=".1%"),
    alt.Tooltip("ci_low:Q", title="95% 하한", format=".1%"),
    alt.Tooltip("ci_high:Q", title="95% 상한", format=".1%"),
]


def rates_chart(frame: pd.DataFrame, title: str) -> alt.LayerChart:
    """One row per model: the rate as a point, the 95% interval as a bar through it."""
    rate_axis = alt.X(
        "deviation_rate:Q",
        title=texts.AXIS_RATE,
        scale=alt.Scale(domain=[0, 1]),
        axis=alt.Axis(format="%"),
    )
    base = alt.Chart(frame).encode(
        y=alt.Y("model_id:N", title=None, sort=None),
        color=alt.Color("model_id:N", legend=None, scale=alt.Scale(scheme="tableau10")),
        tooltip=_TOOLTIP,
    )
    interval = base.mark_rule(strokeWidth=3, opacity=0.6).encode(
        x=alt.X("ci_low:Q", scale=alt.Scale(domain=[0, 1])), x2="ci_high:Q"
    )
    point = base.mark_point(filled=True, size=120, opacity=1).encode(x=rate_axis)
    label = base.mark_text(dy=-12, fontSize=12).encode(
        x="deviation_rate:Q", text=alt.Text("deviation_rate:Q", format=".0%")
    )
    return (interval + point + label).properties(title=title, height=alt.Step(44))


def trend_chart(frame: pd.DataFrame) -> alt.LayerChart:
    """Weekly rate per model: a line through the points, interval bars at each week."""
    base = alt.Chart(frame).encode(
        x=alt.X("week_start:T", title=texts.AXIS_WEEK, axis=alt.Axis(format="%m-%d")),
        color=alt.Color("model_id:N", title=texts.AXIS_MODEL, scale=alt.Scale(scheme="tableau10")),
        tooltip=[alt.Tooltip("week_start:T", title=texts.AXIS_WEEK), *_TOOLTIP],
    )
    rate = alt.Y(
        "deviation_rate:Q",
        title=texts.AXIS_RATE,
        scale=alt.Scale(domain=[0, 1]),
        axis=alt.Axis(format="%"),
    )
    interval = base.mark_rule(strokeWidth=2, opacity=0.35).encode(
        y=alt.Y("ci_low:Q", scale=alt.Scale(domain=[0, 1])), y2="ci_high:Q"
    )
    line = base.mark_line(point=alt.OverlayMarkDef(filled=True, size=70)).encode(y=rate)
    return (interval + line).properties(title=texts.RATES_TREND, height=300)
