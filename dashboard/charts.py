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


def with_segments(frame: pd.DataFrame) -> pd.DataFrame:
    """Each model's weeks numbered into runs of consecutive weeks (`segment`): a line joins the
    weeks of one run only, so a week without turns leaves a gap instead of a bridging line."""
    ordered = frame.sort_values(["model_id", "week_start"]).copy()
    weeks = pd.to_datetime(ordered["week_start"])
    gap = weeks.groupby(ordered["model_id"]).diff() != pd.Timedelta(days=7)
    ordered["segment"] = gap.groupby(ordered["model_id"]).cumsum().astype(int)
    ordered["run"] = ordered["model_id"].astype(str) + "#" + ordered["segment"].astype(str)
    return ordered


def trend_chart(frame: pd.DataFrame) -> alt.LayerChart:
    """Weekly rate per model: a line through the points of consecutive weeks, interval bars at
    each week, a tick per week start (thinned when they would overlap)."""
    base = alt.Chart(with_segments(frame)).encode(
        x=alt.X(
            "week_start:T",
            title=texts.AXIS_WEEK,
            axis=alt.Axis(
                format="%Y-%m-%d",
                labelAngle=-40,
                labelOverlap="greedy",
                tickCount={"interval": "week", "step": 1},
            ),
        ),
        color=alt.Color("model_id:N", title=texts.AXIS_MODEL, scale=alt.Scale(scheme="tableau10")),
        tooltip=[alt.Tooltip("week_start:T", title=texts.AXIS_WEEK, format="%Y-%m-%d"), *_TOOLTIP],
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
    line = base.mark_line().encode(y=rate, detail="run:N")
    points = base.mark_point(filled=True, size=70, opacity=1).encode(y=rate)
    return (interval + line + points).properties(title=texts.RATES_TREND, height=300)
