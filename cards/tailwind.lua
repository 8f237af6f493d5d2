-- Tailwind: for the user's next two turns their checkers that move are blown
-- one square further the same way.

function play(ctx)
  ctx:add_effect{ lasts = 2 }
end

-- The compass direction from `a` to `b` (one step or jump along a diagonal).
local function direction(a, b)
  local ns = b:byte(2) > a:byte(2) and "n" or "s"
  local ew = b:byte(1) > a:byte(1) and "e" or "w"
  return ns .. ew
end

-- The relocation this makes is an event too (moved, its cause this effect),
-- which this effect does not hear: the checker is blown once.
function on_moved(ctx, event, effect)
  local checker = ctx:checker(event.to)
  if not checker or checker.owner ~= effect.owner then return end
  local last = event.via[#event.via] or event.from
  local beyond = ctx:step_targets(event.to, direction(last, event.to))[1]
  if beyond then ctx:relocate(event.to, beyond) end
end
