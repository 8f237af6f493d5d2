-- Ice (a nightmare card): a marker square; a checker moving onto it slides one
-- more square the way it was going. The effect's data remembers its square.

local SPOTS = { empty = true, colour = "dark", markers = { ice = false } }

function can_play(ctx)
  return ctx:markers_left("ice") > 0 and ctx:count_squares(SPOTS) > 0
end

function play(ctx)
  local sq = ctx:ask_square_where("Ice: which square?", SPOTS)
  ctx:place_marker("ice", sq)
  ctx:add_effect{ lasts = "game", data = { square = sq } }
end

-- The compass direction from `a` to `b` (on one diagonal, line or file).
local function direction(a, b)
  local df = b:byte(1) - a:byte(1)
  local dr = b:byte(2) - a:byte(2)
  local ns = dr > 0 and "n" or (dr < 0 and "s" or "")
  local ew = df > 0 and "e" or (df < 0 and "w" or "")
  return ns .. ew
end

-- event: {kind = "moved", from, to, via = {squares landed on in between}, player}
function on_moved(ctx, event, effect)
  local ice = effect.data.square
  if event.to ~= ice or not ctx:checker(ice) then return end
  local before = event.via[#event.via] or event.from
  local beyond = ctx:step_targets(ice, direction(before, ice))[1]
  if beyond then
    ctx:relocate(ice, beyond)
  end
end
