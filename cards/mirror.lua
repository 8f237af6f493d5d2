-- Mirror (a nightmare card): until the opponent's next card has resolved, each
-- checker of the user's that it takes off the board takes the opponent's
-- checker on the mirror square with it. The effect ends at an event of the
-- stream (`card_discarded`), which the engine watches for it.

function play(ctx)
  ctx:add_effect{ lasts = { ends_at = "card_discarded" } }
end

-- The square opposite through the board's centre: a1 <-> h8, c3 <-> f6.
local function mirror(sq)
  local file = string.char(("a"):byte() + ("h"):byte() - sq:byte(1))
  local rank = string.char(("1"):byte() + ("8"):byte() - sq:byte(2))
  return file .. rank
end

local function reflect(ctx, event)
  -- Only what a card the opponent uses takes off the board (its cause says
  -- so): not a move of the turn, nor a lasting effect's doing, and only the
  -- user's checkers.
  if event.cause.by ~= "card" or event.player == ctx:player() or event.checker.owner ~= ctx:player() then
    return
  end
  local target = mirror(event.at)
  local there = ctx:checker(target)
  if there and there.owner == ctx:opponent() then
    ctx:remove_checker(target)
  end
end

function on_removed(ctx, event, effect)
  if event.reason ~= "sacrificed" then reflect(ctx, event) end
end

function on_captured(ctx, event, effect)
  reflect(ctx, event)
end
