-- Time bomb (a nightmare card): a bomb marker under a checker that goes off
-- three turns later unless that checker moves off it. The effect keeps the
-- bomb's square and its fuse in its own data and ends itself.

-- Checkers with no bomb under them yet.
local function targets(ctx)
  return ctx:checker_squares{ markers = { bomb = false } }
end

function can_play(ctx)
  return ctx:markers_left("bomb") > 0 and #targets(ctx) > 0
end

function play(ctx)
  local sq = ctx:ask_checker("Time bomb: under which checker?", targets(ctx))
  ctx:place_marker("bomb", sq)
  ctx:add_effect{ lasts = "game", data = { square = sq, fuse = 3 } }
end

local function defuse(ctx, square)
  ctx:remove_marker("bomb", square)
  ctx:end_effect()
end

-- The checker on the bomb moved away: the bomb is taken off.
function on_moved(ctx, event, effect)
  if event.from == effect.data.square then defuse(ctx, effect.data.square) end
end

-- Each turn that begins burns the fuse; at zero the bomb goes off.
function on_turn_began(ctx, event, effect)
  local data = effect.data
  data.fuse = data.fuse - 1
  if data.fuse > 0 then
    ctx:set_effect_data(data)
    return
  end
  local blast = { data.square }
  for _, dir in ipairs({ "n", "ne", "e", "se", "s", "sw", "w", "nw" }) do
    blast[#blast + 1] = ctx:neighbour(data.square, dir)
  end
  for _, sq in ipairs(blast) do
    if ctx:checker(sq) then ctx:remove_checker(sq) end
  end
  defuse(ctx, data.square)
end
